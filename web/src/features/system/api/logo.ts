import {
  type LogoConfig,
  SYSTEM_SETTING_IDENTIFIER,
  type SysConfig,
  type SysConfigInput,
} from '@kilowatch/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { t } from '../../../lib/i18n.ts';
import { useSession } from '../../../lib/session.ts';
import { toLogoConfig } from '../lib/logo.ts';
import { logoKeys, sysConfigKeys } from './keys.ts';
import { createSysConfig, updateSysConfig } from './sysconfigs.ts';

/** Public: the logo config (spec §3), readable before login. */
export const getLogo = () =>
  http.get<LogoConfig>('/api/sysconfigs/logo', undefined, { anonymous: true, silent: true, quiet: true });

/** Fetches the logo and puts it in the session store, where the sidebar reads it. */
export async function loadLogo(): Promise<LogoConfig> {
  const logo = toLogoConfig(await getLogo()) ?? useSession.getState().logo;
  useSession.getState().setLogo(logo);
  return logo;
}

export const logoQuery = () => ({
  queryKey: logoKeys.all,
  queryFn: loadLogo,
  // Once per app: saving the logo updates the store and this cache directly.
  staleTime: Number.POSITIVE_INFINITY,
  retry: false,
});

/** Loads the logo into the session store once; the sidebar calls it (the store keeps the default on failure). */
export const useStartupLogo = () => {
  useQuery(logoQuery());
};

/** PUT the `systemSetting` config, or POST it when it does not exist yet. */
export function saveLogo(logo: LogoConfig, existing: SysConfig | null) {
  const input: SysConfigInput = {
    identifier: SYSTEM_SETTING_IDENTIFIER,
    name: existing?.name || t('system.logo.configName'),
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
    queryClient.setQueryData(logoKeys.all, logo);
  };
}

export function useSaveLogo() {
  const queryClient = useQueryClient();
  const applyLogo = useApplyLogo();
  return useMutation({
    mutationFn: ({ logo, existing }: { logo: LogoConfig; existing: SysConfig | null }) =>
      saveLogo(logo, existing),
    onSuccess: async (_saved, { logo }) => {
      applyLogo(logo);
      await queryClient.invalidateQueries({ queryKey: sysConfigKeys.all });
    },
  });
}
