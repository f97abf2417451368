import {
  type ErpConfig,
  type GroupInput,
  groupCreate,
  groupDelete,
  groupList,
  groupUpdate,
  type KeywordQuery,
  type LogoConfig,
  MAX_PAGE_SIZE,
  type PasswordReset,
  type RoleInput,
  resourceList,
  roleCreate,
  roleDelete,
  roleList,
  roleUpdate,
  SYSTEM_SETTING_IDENTIFIER,
  type SysConfig,
  type SysConfigInput,
  type SysConfigQuery,
  sysConfigCreate,
  sysConfigDelete,
  sysConfigErpGet,
  sysConfigErpSave,
  sysConfigList,
  sysConfigLogo,
  sysConfigUpdate,
  type User,
  type UserCreate,
  type UserUpdate,
  userCreate,
  userDelete,
  userList,
  userPasswordReset,
  userUpdate,
} from '@kilowatch/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Static } from 'typebox';
import { call } from '../lib/call.ts';
import { toLogoConfig } from '../lib/logo.ts';
import { useSession } from '../lib/session.ts';
import { keys } from './keys.ts';

/**
 * System administration: users, groups, roles, the grantable resources, system configs and the
 * public logo. Tables cache under each resource's root (`keys.users.all`, …), so a write there
 * refreshes tables and pickers alike.
 */

// ---- users --------------------------------------------------------------------------------------

export type UserQuery = Static<typeof KeywordQuery>;

export const getUsers = (query: UserQuery) => call(userList, { query });

export const createUser = (body: UserCreate) => call(userCreate, { body });

export const updateUser = (id: number, body: UserUpdate) => call(userUpdate, { params: { id }, body });

/** The server refuses deleting oneself or the last admin, with a message the http module shows. */
export const deleteUser = (id: number) => call(userDelete, { params: { id } });

export const resetUserPassword = (id: number, body: PasswordReset) =>
  call(userPasswordReset, { params: { id }, body });

/** The editable fields of a user, as PUT expects them, with some changed. */
export const toUserUpdate = (user: User, changes: Partial<UserUpdate> = {}): UserUpdate => ({
  name: user.name,
  avatar: user.avatar,
  introduction: user.introduction,
  userLevel: user.userLevel,
  disabled: user.disabled,
  roleIds: user.roleIds,
  groupIds: user.groupIds,
  ...changes,
});

// ---- groups -------------------------------------------------------------------------------------

export const getGroups = (query: Static<typeof KeywordQuery>, silent = false) =>
  call(groupList, { query, silent });

export const createGroup = (body: GroupInput) => call(groupCreate, { body });

export const updateGroup = (id: number, body: GroupInput) => call(groupUpdate, { params: { id }, body });

export const deleteGroup = (id: number) => call(groupDelete, { params: { id } });

/** Every group, for pickers and for naming a user's groups. */
export const useGroupOptions = () =>
  useQuery({
    queryKey: keys.groups.options(),
    queryFn: () => getGroups({ page: 1, pageSize: MAX_PAGE_SIZE }, true).then((p) => p.list),
  });

// ---- roles --------------------------------------------------------------------------------------

export const getRoles = (query: Static<typeof KeywordQuery>, silent = false) =>
  call(roleList, { query, silent });

export const createRole = (body: RoleInput) => call(roleCreate, { body });

export const updateRole = (id: number, body: RoleInput) => call(roleUpdate, { params: { id }, body });

export const deleteRole = (id: number) => call(roleDelete, { params: { id } });

/** Every role, for pickers and for naming a user's roles. */
export const useRoleOptions = () =>
  useQuery({
    queryKey: keys.roles.options(),
    queryFn: () => getRoles({ page: 1, pageSize: MAX_PAGE_SIZE }, true).then((p) => p.list),
  });

// ---- resources ----------------------------------------------------------------------------------

/** The console routes that roles can grant (seeded by the server from contract/src/routes.ts). */
const getResources = () => call(resourceList, { silent: true });

export const resourcesQuery = () => ({
  queryKey: keys.resources.list(),
  queryFn: getResources,
  // They change only when the console's route table does.
  staleTime: 5 * 60_000,
});

export const useResources = () => useQuery(resourcesQuery());

// ---- system configs -----------------------------------------------------------------------------

export const getSysConfigs = (query: Static<typeof SysConfigQuery>, silent = false) =>
  call(sysConfigList, { query, silent });

export const createSysConfig = (body: SysConfigInput) => call(sysConfigCreate, { body });

export const updateSysConfig = (id: number, body: SysConfigInput) =>
  call(sysConfigUpdate, { params: { id }, body });

export const deleteSysConfig = (id: number) => call(sysConfigDelete, { params: { id } });

/** The config with exactly this identifier, or null (the list filter may also match others). */
const getSysConfigByIdentifier = async (identifier: string): Promise<SysConfig | null> => {
  const page = await getSysConfigs({ page: 1, pageSize: 100, identifier }, true);
  return page.list.find((c) => c.identifier === identifier) ?? null;
};

export const useSysConfigByIdentifier = (identifier: string) =>
  useQuery({
    queryKey: keys.sysconfigs.byIdentifier(identifier),
    queryFn: () => getSysConfigByIdentifier(identifier),
  });

/** The ERP export's configuration (GET /api/sysconfigs/erp), the default while none is saved. */
export const useErpConfig = () =>
  useQuery({ queryKey: keys.sysconfigs.erp(), queryFn: () => call(sysConfigErpGet, { silent: true }) });

/** Saves the ERP form; its tariff is the plant's, so the tariff screen and overview refresh too. */
export function useSaveErpConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ErpConfig) => call(sysConfigErpSave, { body }),
    onSuccess: () =>
      Promise.all(
        [keys.sysconfigs.all, keys.tariffs.all, keys.dashboard.all].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      ),
  });
}

// ---- logo ---------------------------------------------------------------------------------------

/** Public: the logo config (spec §3), readable before login. */
const getLogo = () => call(sysConfigLogo, { anonymous: true, silent: true, quiet: true });

/** Fetches the logo and puts it in the session store, where the sidebar reads it. */
export async function loadLogo(): Promise<LogoConfig> {
  const logo = toLogoConfig(await getLogo()) ?? useSession.getState().logo;
  useSession.getState().setLogo(logo);
  return logo;
}

const logoQuery = () => ({
  queryKey: keys.logo.all,
  queryFn: loadLogo,
  // Once per app: saving the logo updates the store and this cache directly.
  staleTime: Number.POSITIVE_INFINITY,
  retry: false,
});

/** Loads the logo into the session store once; the sidebar calls it (the store keeps the default on failure). */
export const useStartupLogo = () => {
  useQuery(logoQuery());
};

/** PUT the `systemSetting` config, or POST it when it does not exist yet (named `name` then). */
function saveLogo(logo: LogoConfig, existing: SysConfig | null, name: string) {
  const input: SysConfigInput = {
    identifier: SYSTEM_SETTING_IDENTIFIER,
    name: existing?.name || name,
    value: JSON.stringify(logo),
    description: existing?.description ?? '',
  };
  return existing ? updateSysConfig(existing.id, input) : createSysConfig(input);
}

/** Keeps the sidebar in step with a logo that was just saved. */
export function useApplyLogo() {
  const queryClient = useQueryClient();
  return (logo: LogoConfig) => {
    useSession.getState().setLogo(logo);
    queryClient.setQueryData(keys.logo.all, logo);
  };
}

export function useSaveLogo() {
  const queryClient = useQueryClient();
  const applyLogo = useApplyLogo();
  return useMutation({
    mutationFn: ({ logo, existing, name }: { logo: LogoConfig; existing: SysConfig | null; name: string }) =>
      saveLogo(logo, existing, name),
    onSuccess: async (_saved, { logo }) => {
      applyLogo(logo);
      await queryClient.invalidateQueries({ queryKey: keys.sysconfigs.all });
    },
  });
}
