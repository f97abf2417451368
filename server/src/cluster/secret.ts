import type { Kysely } from 'kysely';
import type { DB } from '../db/index.ts';

/**
 * The token-signing key every replica uses when JWT_SECRET is unset: the first replica to start
 * stores its own (DATA_DIR/secret.key), the others read it, so a token one replica signed is
 * good on all of them and a single server keeps the key it had.
 */
export async function sharedJwtSecret(db: Kysely<DB>, own: string): Promise<string> {
  await db
    .insertInto('server_secrets')
    .values({ name: 'jwt', value: own })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('server_secrets')
    .select('value')
    .where('name', '=', 'jwt')
    .executeTakeFirstOrThrow();
  return row.value;
}
