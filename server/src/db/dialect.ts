import type { ColumnDefinitionBuilder } from 'kysely';

export type Dialect = 'sqlite' | 'postgres';

/** An integer primary key the database numbers itself, spelled the way each dialect wants. */
export const autoIncrementId =
  (dialect: Dialect) =>
  (column: ColumnDefinitionBuilder): ColumnDefinitionBuilder =>
    dialect === 'sqlite'
      ? column.primaryKey().autoIncrement()
      : column.primaryKey().generatedByDefaultAsIdentity();
