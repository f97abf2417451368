import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type {
  Aggregator,
  Category,
  CategoryAbilitiesPatch,
  CategoryAbility,
  CategoryAbilityInput,
  CategoryInput,
  EffectiveAbility,
  ImportResult,
  Model,
  ModelAbilityPatch,
  ModelInput,
  Presence,
  Thing,
  ThingInput,
  ThingListItem,
  ThingToken,
} from '@kilowatch/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/index.ts';
import { type Db, isForeignKeyViolation, isUniqueViolation, page } from '../../db/sql.ts';
import { AppError } from '../../errors.ts';
import type { MessageKey, MessageParams } from '../../i18n/index.ts';
import {
  ACCESS_TOKEN_PATTERN,
  type ImportColumn,
  type ImportFormat,
  inTurns,
  isIdentifier,
  parseImportUpload,
  validateImportRows,
} from './import.ts';
import { presenceOf, type ThingSeen } from './presence.ts';
import * as repo from './repository.ts';

/** One row error of an import, still to be put into the request's language. */
export interface ImportProblem {
  row: number;
  /** The column's header as the file wrote it. */
  column: string;
  /** A required column the header lacks: named in the reader's language when answered. */
  missing?: ImportColumn;
  message: MessageKey;
  params?: MessageParams;
}

/** An import refused as a whole: the rows at fault, nothing written. Answered 422 by the route. */
export class ImportRejected extends Error {
  override name = 'ImportRejected';
  constructor(readonly problems: ImportProblem[]) {
    super('import rejected');
  }
}

export interface ThingsServiceDeps {
  db: Kysely<DB>;
  now: () => number;
  /** What the telemetry store last saw of each thing (the device list's presence); none without it. */
  seen?: () => ReadonlyMap<number, ThingSeen>;
  /** Told after every write (committed or not): the catalog drops what it cached. */
  onChange?: () => void;
}

interface Paging {
  page?: number;
  pageSize?: number;
}

export interface Paged<T> {
  list: T[];
  total: number;
  page: number;
  pageSize: number;
}

/** How many names a "still in use" message lists before it says "…". */
const IN_USE_NAMES = 10;

/** A device credential: 32 random bytes, base64url (43 characters). */
export const newAccessToken = (): string => randomBytes(32).toString('base64url');

/** The page a list asks for; the repository computes its own offset. */
const paging = (q: Paging) => {
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

const notFound = (message: MessageKey, id: number | string) =>
  new AppError('NOT_FOUND', 404, { id }, { message });

/** A name after trimming; all blanks count as missing (the schema only checks the length). */
const requiredName = (name: string, field = 'name'): string => {
  const trimmed = name.trim();
  if (!trimmed) throw new AppError('VALIDATION', 400, { field }, { message: 'validation.required' });
  return trimmed;
};

/** Only numeric abilities can accumulate; defaults follow from the kind of value. */
const defaultAggregator = (cumulative: boolean): Aggregator => (cumulative ? 'sum' : 'avg');

export type ThingsService = ReturnType<typeof createThingsService>;

/**
 * The device model (spec §7 "Device management"): categories and their abilities, models and
 * their overrides, things with their removals and access tokens. Each call that writes runs in
 * one transaction, which it passes to the repository.
 */
export function createThingsService(deps: ThingsServiceDeps) {
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

  async function assertCategoryNameFree(trx: Db, name: string, exceptId?: number) {
    const taken = await repo.findCategoryIdByName(trx, name);
    if (taken !== undefined && taken !== exceptId) {
      throw new AppError('CONFLICT', 409, { name }, { message: 'things.categoryNameTaken' });
    }
  }

  async function assertModelNameFree(trx: Db, category: Category, name: string, exceptId?: number) {
    const taken = await repo.findModelIdByName(trx, category.id, name);
    if (taken !== undefined && taken !== exceptId) {
      throw new AppError(
        'CONFLICT',
        409,
        { name, category: category.name },
        { message: 'things.modelNameTaken' },
      );
    }
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
    // ---- categories ----

    async listCategories(query: Paging & { name?: string }): Promise<Paged<Category>> {
      const p = paging(query);
      return { ...(await repo.listCategories(db, { ...p, name: query.name?.trim() })), ...p };
    },

    async createCategory(input: CategoryInput): Promise<Category> {
      const name = requiredName(input.name);
      const conflict = () => new AppError('CONFLICT', 409, { name }, { message: 'things.categoryNameTaken' });
      return write(async (trx) => {
        await assertCategoryNameFree(trx, name);
        const id = await repo.insertCategory(trx, { name, description: input.description ?? '' }, isoNow());
        return requireCategory(trx, id);
      }, conflict);
    },

    async updateCategory(id: number, input: CategoryInput): Promise<Category> {
      const name = requiredName(input.name);
      const conflict = () => new AppError('CONFLICT', 409, { name }, { message: 'things.categoryNameTaken' });
      return write(async (trx) => {
        const current = await requireCategory(trx, id);
        await assertCategoryNameFree(trx, name, id);
        await repo.updateCategory(
          trx,
          id,
          { name, description: input.description ?? current.description },
          isoNow(),
        );
        return requireCategory(trx, id);
      }, conflict);
    },

    /** Refused (409, naming the models) while models use the category; its abilities go with it. */
    async deleteCategory(id: number): Promise<void> {
      await write(
        async (trx) => {
          const category = await requireCategory(trx, id);
          refuseWhileUsed(
            category.name,
            await repo.modelsOfCategory(trx, id, IN_USE_NAMES),
            'things.categoryInUse',
          );
          await repo.deleteCategory(trx, id);
        },
        () => new AppError('CONFLICT', 409),
      );
    },

    // ---- category abilities ----

    async categoryAbilities(categoryId: number): Promise<CategoryAbility[]> {
      await requireCategory(db, categoryId);
      return repo.listCategoryAbilities(db, categoryId);
    },

    async createCategoryAbility(categoryId: number, input: CategoryAbilityInput): Promise<CategoryAbility> {
      const cumulative = input.cumulative ?? false;
      const values: repo.AbilityValues = {
        identifier: input.identifier,
        name: requiredName(input.name),
        unit: input.unit?.trim() ?? '',
        dataType: input.dataType ?? 'number',
        aggregator: input.aggregator ?? defaultAggregator(cumulative),
        cumulative,
        enumOptions: input.enumOptions ?? [],
        sort: input.sort ?? 0,
      };
      assertCumulativeIsNumber(values);
      let categoryName = '';
      const conflict = () =>
        new AppError(
          'CONFLICT',
          409,
          { identifier: values.identifier, category: categoryName },
          { message: 'things.abilityIdentifierTaken' },
        );
      return write(async (trx) => {
        const category = await requireCategory(trx, categoryId);
        categoryName = category.name;
        if (await repo.findCategoryAbilityByIdentifier(trx, categoryId, values.identifier)) throw conflict();
        return repo.insertCategoryAbility(trx, categoryId, values, isoNow());
      }, conflict);
    },

    /** Updates several abilities of one category at once; every id must be one of its abilities. */
    async patchCategoryAbilities(
      categoryId: number,
      patch: CategoryAbilitiesPatch,
    ): Promise<CategoryAbility[]> {
      return write(
        async (trx) => {
          const category = await requireCategory(trx, categoryId);
          const current = new Map((await repo.listCategoryAbilities(trx, categoryId)).map((a) => [a.id, a]));
          const stamp = isoNow();
          for (const change of patch) {
            const ability = current.get(change.id);
            if (!ability) {
              throw new AppError(
                'NOT_FOUND',
                404,
                { id: change.id, category: category.name },
                { message: 'things.abilityNotInCategory' },
              );
            }
            const next = {
              name: change.name === undefined ? ability.name : requiredName(change.name),
              unit: change.unit?.trim() ?? ability.unit,
              dataType: change.dataType ?? ability.dataType,
              aggregator: change.aggregator ?? ability.aggregator,
              cumulative: change.cumulative ?? ability.cumulative,
              enumOptions: change.enumOptions ?? ability.enumOptions,
              sort: change.sort ?? ability.sort,
            };
            assertCumulativeIsNumber({ identifier: ability.identifier, ...next });
            await repo.updateCategoryAbility(trx, ability.id, next, stamp);
            current.set(ability.id, { ...ability, ...next });
          }
          return repo.listCategoryAbilities(trx, categoryId);
        },
        () => new AppError('CONFLICT', 409),
      );
    },

    /** Also drops the models' overrides and the things' removals of it. */
    async deleteCategoryAbility(id: number): Promise<void> {
      await write(
        async (trx) => {
          if (!(await repo.findCategoryAbility(trx, id))) throw notFound('things.abilityNotFound', id);
          await repo.deleteCategoryAbility(trx, id);
        },
        () => new AppError('CONFLICT', 409),
      );
    },

    // ---- models ----

    async listModels(query: Paging & { name?: string; categoryId?: number }): Promise<Paged<Model>> {
      const p = paging(query);
      return {
        ...(await repo.listModels(db, { ...p, name: query.name?.trim(), categoryId: query.categoryId })),
        ...p,
      };
    },

    async createModel(input: ModelInput): Promise<Model> {
      const name = requiredName(input.name);
      let categoryName = '';
      const conflict = () =>
        new AppError('CONFLICT', 409, { name, category: categoryName }, { message: 'things.modelNameTaken' });
      return write(async (trx) => {
        const category = await repo.findCategory(trx, input.categoryId);
        if (!category) throw missingReference('things.categoryNotFound', input.categoryId);
        categoryName = category.name;
        await assertModelNameFree(trx, category, name);
        const id = await repo.insertModel(
          trx,
          { categoryId: category.id, name, description: input.description ?? '' },
          isoNow(),
        );
        return requireModel(trx, id);
      }, conflict);
    },

    /**
     * Moving a model to another category drops its overrides and its things' removals: they
     * named the old category's abilities.
     */
    async updateModel(id: number, input: ModelInput): Promise<Model> {
      const name = requiredName(input.name);
      let categoryName = '';
      const conflict = () =>
        new AppError('CONFLICT', 409, { name, category: categoryName }, { message: 'things.modelNameTaken' });
      return write(async (trx) => {
        const current = await requireModel(trx, id);
        const category = await repo.findCategory(trx, input.categoryId);
        if (!category) throw missingReference('things.categoryNotFound', input.categoryId);
        categoryName = category.name;
        await assertModelNameFree(trx, category, name, id);
        if (category.id !== current.categoryId) {
          await repo.deleteModelOverrides(trx, id);
          await repo.deleteAbilityRemovalsOfModel(trx, id);
        }
        await repo.updateModel(
          trx,
          id,
          { categoryId: category.id, name, description: input.description ?? current.description },
          isoNow(),
        );
        return requireModel(trx, id);
      }, conflict);
    },

    /** Refused (409, naming the things) while things use the model; its overrides go with it. */
    async deleteModel(id: number): Promise<void> {
      await write(
        async (trx) => {
          const model = await requireModel(trx, id);
          refuseWhileUsed(model.name, await repo.thingsOfModel(trx, id, IN_USE_NAMES), 'things.modelInUse');
          await repo.deleteModel(trx, id);
        },
        () => new AppError('CONFLICT', 409),
      );
    },

    async modelAbilities(modelId: number): Promise<EffectiveAbility[]> {
      await requireModel(db, modelId);
      return repo.effectiveAbilitiesOfModel(db, modelId);
    },

    /**
     * Sets (merges) the model's override of one category ability, or drops it with `reset`.
     * 404 when the ability is not of the model's category.
     */
    async patchModelAbility(abilityId: number, patch: ModelAbilityPatch): Promise<EffectiveAbility> {
      return write(
        async (trx) => {
          const model = await requireModel(trx, patch.modelId);
          const ability = await repo.findCategoryAbility(trx, abilityId);
          if (!ability || ability.categoryId !== model.categoryId) {
            throw new AppError(
              'NOT_FOUND',
              404,
              { id: abilityId, category: model.categoryName },
              { message: 'things.abilityNotInCategory' },
            );
          }
          if (patch.reset) {
            await repo.deleteModelOverrides(trx, model.id, abilityId);
          } else {
            const current = (await repo.findModelOverride(trx, model.id, abilityId)) ?? {
              name: null,
              unit: null,
              aggregator: null,
              cumulative: null,
              sort: null,
            };
            const next: repo.OverrideValues = {
              name: patch.name === undefined ? current.name : requiredName(patch.name),
              unit: patch.unit?.trim() ?? current.unit,
              aggregator: patch.aggregator ?? current.aggregator,
              cumulative: patch.cumulative ?? current.cumulative,
              sort: patch.sort ?? current.sort,
            };
            assertCumulativeIsNumber({
              identifier: ability.identifier,
              dataType: ability.dataType,
              cumulative: next.cumulative ?? ability.cumulative,
            });
            await repo.upsertModelOverride(trx, model.id, abilityId, next, isoNow());
          }
          const effective = await repo.effectiveAbilitiesOfModel(trx, model.id);
          const result = effective.find((a) => a.abilityId === abilityId);
          if (!result) throw notFound('things.abilityNotFound', abilityId);
          return result;
        },
        () => new AppError('CONFLICT', 409),
      );
    },

    // ---- things ----

    async listThings(
      query: Paging & { name?: string; categoryId?: number; modelId?: number },
    ): Promise<Paged<Thing>> {
      const p = paging(query);
      return {
        ...(await repo.listThings(db, {
          ...p,
          name: query.name?.trim(),
          categoryId: query.categoryId,
          modelId: query.modelId,
        })),
        ...p,
      };
    },

    /**
     * The device list: things with the time of their newest stored value and their presence.
     * A presence filter is applied to the ids in memory (the store, not SQL, knows who sent what).
     */
    async listThingsWithPresence(
      query: Paging & repo.ThingFilters & { presence?: Presence },
    ): Promise<Paged<ThingListItem>> {
      const p = paging(query);
      const filters = { name: query.name?.trim(), categoryId: query.categoryId, modelId: query.modelId };
      const seen = deps.seen?.() ?? new Map<number, ThingSeen>();
      const at = now();
      const withPresence = (thing: Thing): ThingListItem => ({
        ...thing,
        ...presenceOf(seen.get(thing.id), at),
      });
      if (query.presence === undefined) {
        const rows = await repo.listThings(db, { ...p, ...filters });
        return { list: rows.list.map(withPresence), total: rows.total, ...p };
      }
      const ids = (await repo.listThingIds(db, filters)).filter(
        (id) => presenceOf(seen.get(id), at).presence === query.presence,
      );
      const pageIds = ids.slice((p.page - 1) * p.pageSize, p.page * p.pageSize);
      return {
        list: (await repo.findThingsInOrder(db, pageIds)).map(withPresence),
        total: ids.length,
        ...p,
      };
    },

    /** Every thing's presence now, by id (the situation overview's counts and markers). */
    async presenceAll(): Promise<Map<number, Presence>> {
      const seen = deps.seen?.() ?? new Map<number, ThingSeen>();
      const at = now();
      const ids = await repo.listThingIds(db, {});
      return new Map(ids.map((id) => [id, presenceOf(seen.get(id), at).presence]));
    },

    getThing: (id: number): Promise<Thing> => requireThing(db, id),

    /** The things with these ids, in one read per 500; a 404 like getThing's for the first one missing. */
    async getThings(ids: readonly number[]): Promise<Thing[]> {
      const out: Thing[] = [];
      for (let i = 0; i < ids.length; i += 500)
        out.push(...(await repo.findThings(db, ids.slice(i, i + 500))));
      const found = new Set(out.map((t) => t.id));
      const missing = ids.find((id) => !found.has(id));
      if (missing !== undefined) throw notFound('things.thingNotFound', missing);
      return out;
    },

    /** The thing a device access token belongs to, or undefined (the unique index on the token). */
    thingByToken: (token: string): Promise<Thing | undefined> => repo.findThingByToken(db, token),

    thingByIdentifier: (identifier: string): Promise<Thing | undefined> =>
      repo.findThingByIdentifier(db, identifier),

    /**
     * The effective abilities of each thing (model overrides applied, removals left out), in one
     * query; every requested id is a key, unknown ids map to [].
     * @example (await things.effectiveAbilities([1, 2])).get(1) // [{ identifier: 'P', … }]
     */
    effectiveAbilities: (thingIds: readonly number[]): Promise<Map<number, EffectiveAbility[]>> =>
      repo.effectiveAbilitiesOfThings(db, thingIds),

    async createThing(input: ThingInput): Promise<Thing> {
      const conflict = () =>
        new AppError(
          'CONFLICT',
          409,
          { identifier: input.identifier, name: input.identifier },
          { message: 'things.identifierTaken' },
        );
      return write(async (trx) => {
        const model = await repo.findModel(trx, input.modelId);
        if (!model) throw missingReference('things.modelNotFound', input.modelId);
        await assertIdentifierFree(trx, input.identifier);
        const [id] = await repo.insertThings(
          trx,
          [
            {
              identifier: input.identifier,
              name: requiredName(input.name),
              description: input.description ?? '',
              modelId: model.id,
              attributes: input.setting?.attributes ?? [],
              accessToken: newAccessToken(),
            },
          ],
          isoNow(),
        );
        return requireThing(trx, id!);
      }, conflict);
    },

    /** A move to a model of another category forgets the thing's ability removals. */
    async updateThing(id: number, input: ThingInput): Promise<Thing> {
      const conflict = () =>
        new AppError(
          'CONFLICT',
          409,
          { identifier: input.identifier, name: input.identifier },
          { message: 'things.identifierTaken' },
        );
      return write(async (trx) => {
        const current = await requireThing(trx, id);
        const model = await repo.findModel(trx, input.modelId);
        if (!model) throw missingReference('things.modelNotFound', input.modelId);
        await assertIdentifierFree(trx, input.identifier, id);
        if (model.categoryId !== current.categoryId) await repo.deleteAbilityRemovals(trx, [id]);
        await repo.updateThing(
          trx,
          id,
          {
            identifier: input.identifier,
            name: requiredName(input.name),
            description: input.description ?? current.description,
            modelId: model.id,
            attributes: input.setting?.attributes ?? current.setting.attributes,
          },
          isoNow(),
        );
        return requireThing(trx, id);
      }, conflict);
    },

    /** Its ability removals and region bindings go with it (ON DELETE CASCADE), in one transaction. */
    async deleteThing(id: number): Promise<void> {
      await write(
        async (trx) => {
          await requireThing(trx, id);
          await repo.deleteThing(trx, id);
        },
        () => new AppError('CONFLICT', 409),
      );
    },

    async thingAbilities(id: number): Promise<EffectiveAbility[]> {
      await requireThing(db, id);
      return (await repo.effectiveAbilitiesOfThings(db, [id])).get(id) ?? [];
    },

    /** Removes abilities (category ability ids) from one thing; returns what it has left. */
    async removeThingAbilities(id: number, abilityIds: number[]): Promise<EffectiveAbility[]> {
      return write(
        async (trx) => {
          const thing = await requireThing(trx, id);
          const own = new Set((await repo.listCategoryAbilities(trx, thing.categoryId)).map((a) => a.id));
          const foreign = abilityIds.find((abilityId) => !own.has(abilityId));
          if (foreign !== undefined) {
            throw new AppError(
              'NOT_FOUND',
              404,
              { id: foreign, category: thing.categoryName },
              { message: 'things.abilityNotInCategory' },
            );
          }
          await repo.insertAbilityRemovals(trx, id, [...new Set(abilityIds)], isoNow());
          return (await repo.effectiveAbilitiesOfThings(trx, [id])).get(id) ?? [];
        },
        () => new AppError('CONFLICT', 409),
      );
    },

    async thingToken(id: number): Promise<ThingToken> {
      const accessToken = await repo.findAccessToken(db, id);
      if (accessToken === undefined) throw notFound('things.thingNotFound', id);
      return { thingId: id, accessToken };
    },

    /** A new token; the old one stops working at once. */
    async regenerateThingToken(id: number): Promise<ThingToken> {
      return write(
        async (trx) => {
          await requireThing(trx, id);
          const accessToken = newAccessToken();
          await repo.setAccessToken(trx, id, accessToken, isoNow());
          return { thingId: id, accessToken };
        },
        () => new AppError('CONFLICT', 409),
      );
    },

    // ---- import ----

    /** Model names as the import template lists them ("Category/Model"). */
    async modelNames(): Promise<{ category: string; model: string }[]> {
      return (await repo.allModelNames(db)).map((m) => ({ category: m.categoryName, model: m.name }));
    },

    /** Region paths from the top ("一车间/一号线"), as the import template lists them. */
    async regionPaths(): Promise<string[]> {
      const nodes = await repo.regionNodes(db);
      const byId = new Map(nodes.map((n) => [n.id, n]));
      const pathOf = (id: number, depth = 0): string => {
        const node = byId.get(id)!;
        const parent = node.parentId === null ? undefined : byId.get(node.parentId);
        return parent && depth < nodes.length ? `${pathOf(parent.id, depth + 1)}/${node.name}` : node.name;
      };
      return nodes.map((n) => pathOf(n.id));
    },

    /**
     * Creates the things of an import after reading the file as it arrives and checking every
     * row: all rows are written (and bound to their regions) in one transaction, or none and
     * ImportRejected lists every row at fault. The rows are checked and their values made before
     * the transaction, which then only writes: on SQLite it holds the one connection every other
     * request (health, login, ingest) waits for. A thing created meanwhile with a checked
     * identifier or token fails the write on the unique index (409), nothing written.
     */
    async importThings(file: Readable, format: ImportFormat): Promise<ImportResult> {
      const { rows, headers, problems: shape } = await parseImportUpload(file, format);
      if (shape.length > 0) throw new ImportRejected(shape);
      const known = {
        models: await repo.allModelNames(db),
        regions: await repo.regionNodes(db),
        identifiers: await repo.existingIdentifiers(db, rows.map((r) => r.identifier).filter(isIdentifier)),
        tokens: await repo.existingAccessTokens(
          db,
          // Only well-formed tokens can exist, so only they are looked up (PostgreSQL refuses NUL text).
          rows.flatMap((r) => (ACCESS_TOKEN_PATTERN.test(r.token) ? [r.token] : [])),
        ),
      };
      const { things, problems } = await validateImportRows(rows, headers, known);
      if (problems.length > 0) throw new ImportRejected(problems);
      const values = await inTurns(things, (t) => ({
        identifier: t.identifier,
        name: t.name,
        description: t.description,
        modelId: t.modelId,
        attributes: [],
        accessToken: t.accessToken ?? newAccessToken(),
      }));
      return write(
        async (trx) => {
          const stamp = isoNow();
          const ids = await repo.insertThings(trx, values, stamp);
          await repo.bindToRegions(
            trx,
            things.flatMap((t, i) =>
              t.regionId === null ? [] : [{ thingId: ids[i]!, regionId: t.regionId }],
            ),
            stamp,
          );
          return { created: things.length };
        },
        () => new AppError('CONFLICT', 409),
      );
    },
  };
}
