import type { Group, GroupInput } from '@kilowatch/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/index.ts';
import { isUniqueViolation, page } from '../../../db/sql.ts';
import { AppError } from '../../../errors.ts';
import * as repo from './repository.ts';

const notFound = () => new AppError('NOT_FOUND', 404);
const nameTaken = (name: string) => new AppError('CONFLICT', 409, { name }, { message: 'group.nameTaken' });

/** User groups (/sys_management/group). Group names are unique. */
export function createGroupService(db: Kysely<DB>, now: () => number) {
  const iso = () => new Date(now()).toISOString();
  return {
    async list(query: { page?: number; pageSize?: number; name?: string }) {
      const { page: at, pageSize, limit, offset } = page(query);
      const { groups, total } = await repo.listGroups(db, { keyword: query.name, limit, offset });
      return { list: groups, total, page: at, pageSize };
    },

    async create(input: GroupInput): Promise<Group> {
      try {
        const id = await repo.insertGroup(
          db,
          { name: input.name, description: input.description ?? '' },
          iso(),
        );
        return (await repo.findGroup(db, id)) as Group;
      } catch (error) {
        if (isUniqueViolation(error)) throw nameTaken(input.name);
        throw error;
      }
    },

    async update(id: number, input: GroupInput): Promise<Group> {
      try {
        if (!(await repo.updateGroup(db, id, input, iso()))) throw notFound();
      } catch (error) {
        if (isUniqueViolation(error)) throw nameTaken(input.name);
        throw error;
      }
      return (await repo.findGroup(db, id)) as Group;
    },

    async remove(id: number): Promise<void> {
      if (!(await repo.deleteGroup(db, id))) throw notFound();
    },
  };
}
export type GroupService = ReturnType<typeof createGroupService>;
