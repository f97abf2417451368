import type { Filter, FilterGroup, FilterGroupInput, ResourceType } from '@kilowatch/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/index.ts';
import { isUniqueViolation } from '../../../db/sql.ts';
import { AppError } from '../../../errors.ts';
import type { Catalog } from '../../catalog/index.ts';
import * as repo from './repository.ts';

export interface FilterGroupDeps {
  db: Kysely<DB>;
  /** Names of the members, and whether they exist. */
  catalog: Pick<Catalog, 'select'>;
  now: () => number;
}

const notFound = () => new AppError('NOT_FOUND', 404);
const taken = (name: string) => new AppError('CONFLICT', 409, { name }, { message: 'filterGroup.nameTaken' });
const unknownMember = (resourceType: ResourceType, id: number) =>
  new AppError('UNPROCESSABLE', 422, { resourceType, id }, { message: 'filterGroup.unknownMember' });

/**
 * Filter groups (docs/statistics.md): named sets of things or regions compared side by side. A
 * member's name is read from the catalog when listed, so a renamed thing shows its new name; a
 * member deleted since stays listed with an empty resourceName and draws no values.
 */
export function createFilterGroupService(deps: FilterGroupDeps) {
  const { db, catalog } = deps;
  const iso = () => new Date(deps.now()).toISOString();

  /** The member's current name; null when it no longer exists. */
  async function nameOf(resourceType: ResourceType, id: number): Promise<string | null> {
    try {
      return (await catalog.select({ resourceType, id })).name;
    } catch (error) {
      if (error instanceof AppError && error.status === 404) return null;
      throw error;
    }
  }

  async function toFilters(rows: repo.FilterRow[]): Promise<Filter[]> {
    return Promise.all(
      rows.map(async (r) => {
        const resourceType = r.resource_type as ResourceType;
        return {
          id: r.id,
          groupId: r.group_id,
          name: r.name,
          resourceType,
          resourceId: r.resource_id,
          resourceName: (await nameOf(resourceType, r.resource_id)) ?? '',
          sort: r.sort,
        };
      }),
    );
  }

  async function checked(input: FilterGroupInput) {
    const seen = new Set<string>();
    for (const f of input.filters) {
      const key = `${f.resourceType}:${f.resourceId}`;
      if (seen.has(key)) {
        throw new AppError(
          'UNPROCESSABLE',
          422,
          { resourceType: f.resourceType, id: f.resourceId },
          { message: 'filterGroup.duplicateMember' },
        );
      }
      seen.add(key);
      if ((await nameOf(f.resourceType, f.resourceId)) === null)
        throw unknownMember(f.resourceType, f.resourceId);
    }
    return {
      name: input.name.trim(),
      description: input.description?.trim() ?? '',
      filters: input.filters.map((f) => ({
        name: f.name?.trim() ?? '',
        resourceType: f.resourceType,
        resourceId: f.resourceId,
      })),
    };
  }

  async function get(id: number): Promise<FilterGroup> {
    const row = await repo.findGroup(db, id);
    if (!row) throw notFound();
    return toGroup(row, await toFilters(await repo.listFilters(db, [id])));
  }

  const toGroup = (row: repo.GroupRow, filters: Filter[]): FilterGroup => ({
    id: row.id,
    name: row.name,
    description: row.description,
    filters,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });

  const write = async <T>(name: string, work: () => Promise<T>): Promise<T> =>
    work().catch((error: unknown) => {
      throw isUniqueViolation(error) ? taken(name) : error;
    });

  return {
    get,

    async list(): Promise<FilterGroup[]> {
      const groups = await repo.listGroups(db);
      const filters = await toFilters(await repo.listFilters(db));
      return groups.map((g) =>
        toGroup(
          g,
          filters.filter((f) => f.groupId === g.id),
        ),
      );
    },

    async filters(groupId?: number): Promise<Filter[]> {
      return toFilters(await repo.listFilters(db, groupId === undefined ? undefined : [groupId]));
    },

    async create(input: FilterGroupInput): Promise<FilterGroup> {
      const group = await checked(input);
      const id = await write(group.name, () =>
        db.transaction().execute(async (trx) => {
          if (await repo.findGroupByName(trx, group.name)) throw taken(group.name);
          const id = await repo.insertGroup(trx, group, iso());
          await repo.replaceFilters(trx, id, group.filters);
          return id;
        }),
      );
      return get(id);
    },

    async update(id: number, input: FilterGroupInput): Promise<FilterGroup> {
      const group = await checked(input);
      await write(group.name, () =>
        db.transaction().execute(async (trx) => {
          if (!(await repo.findGroup(trx, id))) throw notFound();
          const holder = await repo.findGroupByName(trx, group.name);
          if (holder && holder.id !== id) throw taken(group.name);
          await repo.updateGroup(trx, id, group, iso());
          await repo.replaceFilters(trx, id, group.filters);
        }),
      );
      return get(id);
    },

    async remove(id: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        if (!(await repo.findGroup(trx, id))) throw notFound();
        await repo.deleteGroup(trx, id);
      });
    },
  };
}

export type FilterGroupService = ReturnType<typeof createFilterGroupService>;
