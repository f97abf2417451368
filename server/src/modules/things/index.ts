import type { EffectiveAbility, Thing } from '@kilowatch/contract';
import { type Db, effectiveAbilitiesOfThings, findThingByToken } from './repository.ts';

export { thingsRoutes } from './routes.ts';
export { createThingsService, type ThingsService } from './service.ts';

/**
 * The thing a device access token belongs to (telemetry ingest authenticates with it), or
 * undefined. Uses the unique index on the token.
 */
export const findThingByAccessToken = (db: Db, token: string): Promise<Thing | undefined> =>
  findThingByToken(db, token);

/**
 * The effective abilities of each thing (model overrides applied, removals left out), in one
 * query; every requested id is a key, unknown ids map to [].
 * @example (await effectiveAbilitiesOf(db, [1, 2])).get(1) // [{ identifier: 'P', … }]
 */
export const effectiveAbilitiesOf = (
  db: Db,
  thingIds: readonly number[],
): Promise<Map<number, EffectiveAbility[]>> => effectiveAbilitiesOfThings(db, thingIds);
