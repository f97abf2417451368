import type { Kysely } from 'kysely';

// Frozen in time: this file must keep producing the same tables even as the app's types move on.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema types
export async function up(db: Kysely<any>): Promise<void> {
  // The live stream's single-use tickets (docs/cluster.md): in the database, so a ticket issued by
  // one replica is redeemed by whichever replica the load balancer sends the stream to. Only the
  // ticket's SHA-256 is kept; the row lives 30 s at most.
  await db.schema
    .createTable('stream_tickets')
    .addColumn('ticket_hash', 'text', (c) => c.primaryKey())
    .addColumn('access_token', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('stream_tickets_expires').on('stream_tickets').column('expires_at').execute();
  // Secrets every replica must share: the token-signing key when JWT_SECRET is unset on PostgreSQL.
  await db.schema
    .createTable('server_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: as above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('server_secrets').execute();
  await db.schema.dropTable('stream_tickets').execute();
}
