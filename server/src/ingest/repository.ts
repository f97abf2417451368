import type { Kysely } from 'kysely';
import type { DB } from '../db/index.ts';

/**
 * The one read ingest makes of its own: a thing's id and name by identifier, for topics that name
 * the thing (`kilowatch/things/{identifier}/telemetry` on an external broker). The things domain
 * exposes lookups by id and by token only.
 */
export async function findThingIdByIdentifier(
  db: Kysely<DB>,
  identifier: string,
): Promise<{ id: number; identifier: string; name: string } | undefined> {
  return db
    .selectFrom('things')
    .select(['id', 'identifier', 'name'])
    .where('identifier', '=', identifier)
    .executeTakeFirst();
}
