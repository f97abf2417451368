import { ROLE_ADMIN, ROLE_EDITOR, type Role, type RoleInput } from '@kilowatch/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/index.ts';
import { isUniqueViolation, page } from '../../../db/sql.ts';
import { AppError } from '../../../errors.ts';
import * as repo from './repository.ts';

const notFound = () => new AppError('NOT_FOUND', 404);
const codeTaken = (code: string) => new AppError('CONFLICT', 409, { code }, { message: 'role.codeTaken' });
/**
 * The level roles come from userLevel (spec §6). A role coded 'admin' would pass every check
 * in authorize(), so neither name can be taken by an assignable role.
 */
const RESERVED = new Set([ROLE_ADMIN, ROLE_EDITOR]);

/** Assignable roles and the console routes (resources) they grant. */
export function createRoleService(db: Kysely<DB>, now: () => number) {
  const iso = () => new Date(now()).toISOString();

  async function checkInput(trx: Kysely<DB>, input: RoleInput): Promise<string[]> {
    if (RESERVED.has(input.code)) {
      throw new AppError('UNPROCESSABLE', 422, { code: input.code }, { message: 'role.reserved' });
    }
    const paths = [...new Set(input.resourcePaths ?? [])];
    const known = await repo.existingResourcePaths(trx, paths);
    const unknown = paths.filter((p) => !known.has(p));
    if (unknown.length) {
      throw new AppError(
        'UNPROCESSABLE',
        422,
        { paths: unknown.join(', ') },
        { message: 'role.resourcesUnknown' },
      );
    }
    return paths;
  }

  return {
    resources: () => repo.listResources(db),

    async list(query: { page?: number; pageSize?: number; name?: string }) {
      const { page: at, pageSize, limit, offset } = page(query);
      const { roles, total } = await repo.listRoles(db, { keyword: query.name, limit, offset });
      return { list: roles, total, page: at, pageSize };
    },

    async create(input: RoleInput): Promise<Role> {
      const id = await db.transaction().execute(async (trx) => {
        const paths = await checkInput(trx, input);
        const id = await repo.insertRole(
          trx,
          { code: input.code, name: input.name, description: input.description ?? '' },
          iso(),
        );
        if (id === undefined) throw codeTaken(input.code);
        await repo.setRoleResources(trx, id, paths);
        return id;
      });
      return (await repo.findRole(db, id)) as Role;
    },

    /** Replaces the role's fields, and its grants when resourcePaths is given. */
    async update(id: number, input: RoleInput): Promise<Role> {
      await db
        .transaction()
        .execute(async (trx) => {
          const paths = await checkInput(trx, input);
          const holder = await repo.findRoleIdByCode(trx, input.code);
          if (holder !== undefined && holder !== id) throw codeTaken(input.code);
          if (!(await repo.updateRole(trx, id, input, iso()))) throw notFound();
          if (input.resourcePaths) await repo.setRoleResources(trx, id, paths);
        })
        .catch((error: unknown) => {
          // Two renames to the same code at once: the unique index decides.
          throw isUniqueViolation(error) ? codeTaken(input.code) : error;
        });
      return (await repo.findRole(db, id)) as Role;
    },

    async remove(id: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const count = await repo.countRoleUsers(trx, id);
        if (count > 0) throw new AppError('CONFLICT', 409, { count }, { message: 'role.inUse' });
        if (!(await repo.deleteRole(trx, id))) throw notFound();
      });
    },
  };
}
export type RoleService = ReturnType<typeof createRoleService>;
