import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema types
export async function up(db: Kysely<any>): Promise<void> {
  // Every authenticated request asks whether its session (family) still has an unrevoked token;
  // a long session has hundreds of revoked rotations, which this index leaves out.
  await db.schema
    .createIndex('refresh_tokens_open_family')
    .on('refresh_tokens')
    .columns(['family', 'user_id'])
    .where(sql.ref('revoked_at'), 'is', null)
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('refresh_tokens_open_family').execute();
}
