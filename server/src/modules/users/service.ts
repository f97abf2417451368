import { ROLE_ADMIN, type User, type UserCreate, type UserUpdate } from '@kilowatch/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/index.ts';
import type { Db } from '../../db/sql.ts';
import { page } from '../../db/sql.ts';
import { AppError } from '../../errors.ts';
import { type Account, type AuthUser, hashPassword, revokeUserTokens } from '../auth/index.ts';
import { existingGroupIds, existingRoleIds } from '../system/index.ts';
import * as users from './repository.ts';

const notFound = () => new AppError('NOT_FOUND', 404);
const rule = (message: 'user.selfDelete' | 'user.selfDisable' | 'user.lastAdmin') =>
  new AppError('UNPROCESSABLE', 422, {}, { message });

const isEnabledAdmin = (u: { userLevel: number | null; disabled: boolean }) =>
  u.userLevel === 1 && !u.disabled;

/**
 * Someone holding only a grant of /sys_management/user manages ordinary accounts; making,
 * changing or removing an administrator takes an administrator, or the grant would be a way
 * to become one.
 */
const assertMayTouchAdmins = (actor: AuthUser) => {
  if (!actor.roles.includes(ROLE_ADMIN))
    throw new AppError('FORBIDDEN', 403, {}, { message: 'user.adminOnly' });
};

/** Administration of accounts (/sys_management/user): spec §6 guard rails in one place. */
export function createUserAdminService(db: Kysely<DB>, now: () => number) {
  const iso = () => new Date(now()).toISOString();

  async function toContract(trx: Db, list: Account[]): Promise<User[]> {
    const ids = list.map((u) => u.id);
    const [roleIds, groupIds] = await Promise.all([users.roleIdsOf(trx, ids), users.groupIdsOf(trx, ids)]);
    return list.map((u) => ({
      id: u.id,
      username: u.username,
      name: u.name,
      avatar: u.avatar,
      introduction: u.introduction,
      userLevel: u.userLevel,
      disabled: u.disabled,
      roleIds: roleIds.get(u.id) ?? [],
      groupIds: groupIds.get(u.id) ?? [],
      createdAt: u.createdAt,
      updatedAt: u.updatedAt,
    }));
  }

  async function one(id: number): Promise<User> {
    const user = await users.findUserById(db, id);
    if (!user) throw notFound();
    return (await toContract(db, [user]))[0] as User;
  }

  /** Role and group ids must exist (422 naming the missing ones). */
  async function checkMemberships(trx: Db, input: { roleIds?: number[]; groupIds?: number[] }) {
    const roleIds = input.roleIds && [...new Set(input.roleIds)];
    const groupIds = input.groupIds && [...new Set(input.groupIds)];
    if (roleIds) {
      const known = await existingRoleIds(trx, roleIds);
      const missing = roleIds.filter((id) => !known.has(id));
      if (missing.length) {
        throw new AppError(
          'UNPROCESSABLE',
          422,
          { ids: missing.join(', ') },
          { message: 'user.rolesUnknown' },
        );
      }
    }
    if (groupIds) {
      const known = await existingGroupIds(trx, groupIds);
      const missing = groupIds.filter((id) => !known.has(id));
      if (missing.length) {
        throw new AppError(
          'UNPROCESSABLE',
          422,
          { ids: missing.join(', ') },
          { message: 'user.groupsUnknown' },
        );
      }
    }
    return { roleIds, groupIds };
  }

  /** An enabled admin is about to stop being one: never the caller, never the last one. */
  async function assertAdminMayGo(
    trx: Db,
    actor: AuthUser,
    targetId: number,
    message: 'user.selfDelete' | 'user.selfDisable',
  ) {
    if (targetId === actor.id) throw rule(message);
    if ((await users.countOtherEnabledAdmins(trx, targetId)) === 0) throw rule('user.lastAdmin');
  }

  return {
    async list(query: { page?: number; pageSize?: number; name?: string }) {
      const { page: at, pageSize, limit, offset } = page(query);
      const { users: found, total } = await users.listUsers(db, { keyword: query.name, limit, offset });
      return { list: await toContract(db, found), total, page: at, pageSize };
    },

    async create(actor: AuthUser, input: UserCreate): Promise<User> {
      if (input.userLevel === 1) assertMayTouchAdmins(actor);
      const passwordHash = await hashPassword(input.password);
      const id = await db.transaction().execute(async (trx) => {
        const { roleIds, groupIds } = await checkMemberships(trx, input);
        const created = await users.insertUserIfAbsent(
          trx,
          {
            username: input.username,
            passwordHash,
            name: input.name,
            avatar: input.avatar,
            introduction: input.introduction,
            userLevel: input.userLevel,
            disabled: input.disabled,
          },
          iso(),
        );
        if (!created) {
          throw new AppError(
            'CONFLICT',
            409,
            { username: input.username },
            { message: 'user.usernameTaken' },
          );
        }
        if (roleIds) await users.setUserRoles(trx, created.id, roleIds);
        if (groupIds) await users.setUserGroups(trx, created.id, groupIds);
        return created.id;
      });
      return one(id);
    },

    /** Disabling a user or taking away their level also ends their sessions. */
    async update(actor: AuthUser, id: number, input: UserUpdate): Promise<User> {
      await db.transaction().execute(async (trx) => {
        const target = await users.findUserById(trx, id);
        if (!target) throw notFound();
        if (target.userLevel === 1 || input.userLevel === 1) assertMayTouchAdmins(actor);
        const after = { userLevel: input.userLevel, disabled: input.disabled ?? target.disabled };
        if (id === actor.id && after.disabled) throw rule('user.selfDisable');
        if (isEnabledAdmin(target) && !isEnabledAdmin(after))
          await assertAdminMayGo(trx, actor, id, 'user.selfDisable');
        const { roleIds, groupIds } = await checkMemberships(trx, input);
        await users.updateUser(trx, id, input, iso());
        if (roleIds) await users.setUserRoles(trx, id, roleIds);
        if (groupIds) await users.setUserGroups(trx, id, groupIds);
        if (after.disabled || after.userLevel === null) await revokeUserTokens(trx, id, iso());
      });
      return one(id);
    },

    async remove(actor: AuthUser, id: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const target = await users.findUserById(trx, id);
        if (!target) throw notFound();
        if (id === actor.id) throw rule('user.selfDelete');
        if (target.userLevel === 1) assertMayTouchAdmins(actor);
        if (isEnabledAdmin(target)) await assertAdminMayGo(trx, actor, id, 'user.selfDelete');
        await users.deleteUser(trx, id);
      });
    },

    /** Sets a new password and ends every session of the user. */
    async resetPassword(actor: AuthUser, id: number, password: string): Promise<void> {
      const passwordHash = await hashPassword(password);
      await db.transaction().execute(async (trx) => {
        const target = await users.findUserById(trx, id);
        if (!target) throw notFound();
        if (target.userLevel === 1 && target.id !== actor.id) assertMayTouchAdmins(actor);
        await users.updatePasswordHash(trx, id, passwordHash, iso());
        await revokeUserTokens(trx, id, iso());
      });
    },
  };
}
export type UserAdminService = ReturnType<typeof createUserAdminService>;
