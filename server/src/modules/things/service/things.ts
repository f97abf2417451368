import type {
  EffectiveAbility,
  PageResult,
  Presence,
  Thing,
  ThingInput,
  ThingListItem,
  ThingToken,
} from '@kilowatch/contract';
import { AppError } from '../../../errors.ts';
import { presenceOf, type ThingSeen } from '../presence.ts';
import * as repo from '../repository/index.ts';
import {
  newAccessToken,
  notFound,
  type Paging,
  paging,
  requiredName,
  type ServiceContext,
} from './context.ts';

/** Things: the list with presence, their removed abilities and access tokens. */
export function thingService(ctx: ServiceContext) {
  const { db, now, deps, isoNow, requireThing, missingReference, write, assertIdentifierFree } = ctx;
  return {
    async listThings(
      query: Paging & { name?: string; categoryId?: number; modelId?: number },
    ): Promise<PageResult<Thing>> {
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
    ): Promise<PageResult<ThingListItem>> {
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
  };
}
