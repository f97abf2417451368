import { randomBytes } from 'node:crypto';
import type { Aggregator, Category, Model, Thing } from '@kilowatch/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/index.ts';
import { type Db, isForeignKeyViolation, isUniqueViolation, page } from '../../../db/sql.ts';
import { AppError } from '../../../errors.ts';
import type { MessageKey } from '../../../i18n/index.ts';
import type { ThingSeen } from '../presence.ts';
import * as repo from '../repository/index.ts';

// What every part of the things service shares: its dependencies, lookups that answer 404, the
// transaction wrapper that tells the catalog, and the checks of names and identifiers.

export interface ThingsServiceDeps {
  db: Kysely<DB>;
  now: () => number;
  /** What the telemetry store last saw of each thing (the device list's presence); none without it. */
  seen?: () => ReadonlyMap<number, ThingSeen>;
  /** Told after every write (committed or not): the catalog drops what it cached. */
  onChange?: () => void;
}

export interface Paging {
  page?: number;
  pageSize?: number;
}

/** How many names a "still in use" message lists before it says "…". */
const IN_USE_NAMES = 10;

/** A device credential: 32 random bytes, base64url (43 characters). */
export const newAccessToken = (): string => randomBytes(32).toString('base64url');

/** The page a list asks for; the repository computes its own offset. */
export const paging = (q: Paging) => {
  const { page: at, pageSize } = page(q);
  return { page: at, pageSize };
};

const namesList = ({ count, names }: { count: number; names: string[] }) =>
  count > names.length ? `${names.join(', ')}, …` : names.join(', ');

/** 409 naming what still uses `name` (the first IN_USE_NAMES of them), when anything does. */
function refuseWhileUsed(name: string, users: { count: number; names: string[] }, message: MessageKey): void {
  if (users.count > 0) {
    throw new AppError('CONFLICT', 409, { name, count: users.count, names: namesList(users) }, { message });
  }
}

export const notFound = (message: MessageKey, id: number | string) =>
  new AppError('NOT_FOUND', 404, { id }, { message });

/** A name after trimming; all blanks count as missing (the schema only checks the length). */
export const requiredName = (name: string, field = 'name'): string => {
  const trimmed = name.trim();
  if (!trimmed) throw new AppError('VALIDATION', 400, { field }, { message: 'validation.required' });
  return trimmed;
};

/** The 409 of a name another category (or another model of the category `category`) has. */
export const nameTaken = (table: repo.NamedTable, name: string, category: string) =>
  table === 'thing_categories'
    ? new AppError('CONFLICT', 409, { name }, { message: 'things.categoryNameTaken' })
    : new AppError('CONFLICT', 409, { name, category }, { message: 'things.modelNameTaken' });

/** The fields a category's ability and a model's override of it share; `Unset` is null in an override. */
interface AbilityFields<Unset> {
  name: string | Unset;
  unit: string | Unset;
  aggregator: Aggregator | Unset;
  cumulative: boolean | Unset;
  sort: number | Unset;
}

/**
 * A patch over an ability's (or an override's) current fields: what it leaves out stays, a name
 * given must not be blank, a unit is trimmed. The one merge of both editors.
 */
export function mergeAbility<Unset>(
  current: AbilityFields<Unset>,
  patch: { name?: string; unit?: string; aggregator?: Aggregator; cumulative?: boolean; sort?: number },
): AbilityFields<Unset> {
  return {
    name: patch.name === undefined ? current.name : requiredName(patch.name),
    unit: patch.unit?.trim() ?? current.unit,
    aggregator: patch.aggregator ?? current.aggregator,
    cumulative: patch.cumulative ?? current.cumulative,
    sort: patch.sort ?? current.sort,
  };
}

/** Only numeric abilities can accumulate; defaults follow from the kind of value. */
export const defaultAggregator = (cumulative: boolean): Aggregator => (cumulative ? 'sum' : 'avg');

/** The shared state and helpers of one things service, built once by createThingsService. */
export function serviceContext(deps: ThingsServiceDeps) {
  const { db, now } = deps;
  const isoNow = () => new Date(now()).toISOString();

  async function requireCategory(trx: Db, id: number): Promise<Category> {
    const category = await repo.findCategory(trx, id);
    if (!category) throw notFound('things.categoryNotFound', id);
    return category;
  }

  async function requireModel(trx: Db, id: number): Promise<Model> {
    const model = await repo.findModel(trx, id);
    if (!model) throw notFound('things.modelNotFound', id);
    return model;
  }

  async function requireThing(trx: Db, id: number): Promise<Thing> {
    const thing = await repo.findThing(trx, id);
    if (!thing) throw notFound('things.thingNotFound', id);
    return thing;
  }

  /** A referenced row (the model of a thing, the category of a model) that does not exist: 422. */
  const missingReference = (message: MessageKey, id: number) =>
    new AppError('UNPROCESSABLE', 422, { id }, { message });

  /** Runs `work` in a transaction; a unique index that still fires (a race) becomes `conflict`. */
  async function write<T>(work: (trx: Db) => Promise<T>, conflict: () => AppError): Promise<T> {
    try {
      return await db.transaction().execute(work);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict();
      if (isForeignKeyViolation(error)) throw new AppError('CONFLICT', 409);
      throw error;
    } finally {
      // Things, models and abilities are what the catalog caches: its copies are stale now.
      deps.onChange?.();
    }
  }

  /** 409 when another category (or another model of `category`) has the name, ignoring case. */
  async function assertNameFree(
    trx: Db,
    table: repo.NamedTable,
    name: string,
    { exceptId, category }: { exceptId?: number; category?: Category } = {},
  ) {
    const taken = await repo.findIdByName(trx, table, name, category?.id);
    if (taken !== undefined && taken !== exceptId) throw nameTaken(table, name, category?.name ?? '');
  }

  /** Deletes a category or a model; refused (409, naming them) while models or things use it. */
  async function deleteNamed(trx: Db, table: repo.NamedTable, entity: { id: number; name: string }) {
    const message = table === 'thing_categories' ? 'things.categoryInUse' : 'things.modelInUse';
    refuseWhileUsed(entity.name, await repo.usersOf(trx, table, entity.id, IN_USE_NAMES), message);
    await repo.deleteNamed(trx, table, entity.id);
  }

  async function assertIdentifierFree(trx: Db, identifier: string, exceptId?: number) {
    const taken = await repo.findThingByIdentifier(trx, identifier);
    if (taken && taken.id !== exceptId) {
      throw new AppError(
        'CONFLICT',
        409,
        { identifier, name: taken.name },
        { message: 'things.identifierTaken' },
      );
    }
  }

  const assertCumulativeIsNumber = (a: { identifier: string; dataType: string; cumulative: boolean }) => {
    if (a.cumulative && a.dataType !== 'number') {
      throw new AppError(
        'UNPROCESSABLE',
        422,
        { identifier: a.identifier },
        { message: 'things.cumulativeNotNumber' },
      );
    }
  };

  return {
    isoNow,
    requireCategory,
    requireModel,
    requireThing,
    missingReference,
    write,
    assertNameFree,
    deleteNamed,
    assertIdentifierFree,
    assertCumulativeIsNumber,
    db,
    now,
    deps,
  };
}

export type ServiceContext = ReturnType<typeof serviceContext>;
