import {
  type DatabaseIntrospector,
  type DatabaseMetadataOptions,
  type DialectAdapter,
  type Kysely,
  PostgresAdapter,
  PostgresDialect,
  type SchemaMetadata,
  sql,
  type TableMetadata,
} from 'kysely';

/**
 * Kysely's migrator takes one advisory lock for the whole PostgreSQL database, so migrations in
 * different schemas (two installations sharing a database, or the test suites, each in a schema
 * of its own) wait for one another: six suites starting together were ready after 7, 12, 16, 20,
 * 24 and 27 s, one after the other, and under load the last ones ran out of their setup time.
 * What the lock guards, the tables and the migration bookkeeping, is per schema; so is the lock.
 */
class SchemaMigrationLockAdapter extends PostgresAdapter {
  override async acquireMigrationLock(db: Kysely<unknown>): Promise<void> {
    await sql`select pg_advisory_lock(hashtext('kilowatch migrations ' || current_schema()))`.execute(db);
  }

  override async releaseMigrationLock(db: Kysely<unknown>): Promise<void> {
    await sql`select pg_advisory_unlock(hashtext('kilowatch migrations ' || current_schema()))`.execute(db);
  }
}

interface ColumnRow {
  table: string;
  kind: string;
  column: string;
  type: string;
  typeSchema: string;
  notNull: boolean;
  hasDefault: boolean;
  serial: string | null;
  comment: string | null;
}

/**
 * Kysely's introspector lists every column of every schema in the database, calling
 * has_schema_privilege on each schema's name; the migrator asks it whether its own tables exist
 * on every start. A schema dropped meanwhile by another installation or another test suite then
 * failed our migration with 'schema "…" does not exist' (3F000), and the list grows with every
 * schema in the database. Only the current schema's tables are ours to see.
 */
class CurrentSchemaIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<unknown>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace`.execute(
      this.db,
    );
    return rows;
  }

  async getTables(
    options: DatabaseMetadataOptions = { withInternalKyselyTables: false },
  ): Promise<TableMetadata[]> {
    const { rows } = await sql<ColumnRow & { schema: string }>`
      select c.relname as "table", c.relkind as kind, ns.nspname as "schema", a.attname as "column",
        typ.typname as "type", tns.nspname as "typeSchema", a.attnotnull as "notNull",
        a.atthasdef as "hasDefault", col_description(a.attrelid, a.attnum) as "comment",
        pg_get_serial_sequence(quote_ident(ns.nspname) || '.' || quote_ident(c.relname), a.attname) as "serial"
      from pg_catalog.pg_attribute a
      join pg_catalog.pg_class c on a.attrelid = c.oid
      join pg_catalog.pg_namespace ns on c.relnamespace = ns.oid
      join pg_catalog.pg_type typ on a.atttypid = typ.oid
      join pg_catalog.pg_namespace tns on typ.typnamespace = tns.oid
      where ns.nspname = current_schema() and c.relkind in ('r', 'v', 'p')
        and a.attnum >= 0 and not a.attisdropped
      order by c.relname, a.attnum`.execute(this.db);
    const tables = new Map<string, TableMetadata & { columns: TableMetadata['columns'][number][] }>();
    for (const row of rows) {
      if (!options.withInternalKyselyTables && row.table.startsWith('kysely_migration')) continue;
      let table = tables.get(row.table);
      if (!table) {
        table = { name: row.table, schema: row.schema, isView: row.kind === 'v', columns: [] };
        tables.set(row.table, table);
      }
      table.columns.push({
        name: row.column,
        dataType: row.type,
        dataTypeSchema: row.typeSchema,
        isNullable: !row.notNull,
        isAutoIncrementing: row.serial !== null,
        hasDefaultValue: row.hasDefault,
        ...(row.comment === null ? {} : { comment: row.comment }),
      });
    }
    return [...tables.values()];
  }

  async getMetadata(options?: DatabaseMetadataOptions) {
    return { tables: await this.getTables(options) };
  }
}

/** Kysely's PostgreSQL dialect, kept to the current schema in its migration lock and its introspection. */
export class SchemaScopedPostgresDialect extends PostgresDialect {
  override createAdapter(): DialectAdapter {
    return new SchemaMigrationLockAdapter();
  }

  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new CurrentSchemaIntrospector(db);
  }
}
