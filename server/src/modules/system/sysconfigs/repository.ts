import type { SysConfig } from '@kilowatch/contract';
import type { Selectable } from 'kysely';
import type { SysConfigsTable } from '../../../db/schema.ts';
import type { Db } from '../../../db/sql.ts';

const toConfig = (r: Selectable<SysConfigsTable>): SysConfig => ({
  id: r.id,
  identifier: r.identifier,
  name: r.name,
  value: r.value,
  description: r.description,
  updatedAt: r.updated_at,
});

export async function listConfigs(
  db: Db,
  { identifier, limit, offset }: { identifier?: string; limit: number; offset: number },
): Promise<{ configs: SysConfig[]; total: number }> {
  let rows = db.selectFrom('sys_configs').selectAll();
  let total = db.selectFrom('sys_configs').select((eb) => eb.fn.countAll<number | string>().as('count'));
  if (identifier) {
    rows = rows.where('identifier', '=', identifier);
    total = total.where('identifier', '=', identifier);
  }
  const [found, { count }] = await Promise.all([
    rows.orderBy('id').limit(limit).offset(offset).execute(),
    total.executeTakeFirstOrThrow(),
  ]);
  return { configs: found.map(toConfig), total: Number(count) };
}

export async function findConfig(db: Db, id: number): Promise<SysConfig | undefined> {
  const row = await db.selectFrom('sys_configs').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toConfig(row);
}

export async function findConfigByIdentifier(db: Db, identifier: string): Promise<SysConfig | undefined> {
  const row = await db
    .selectFrom('sys_configs')
    .selectAll()
    .where('identifier', '=', identifier)
    .executeTakeFirst();
  return row && toConfig(row);
}

export interface ConfigFields {
  identifier: string;
  name: string;
  value: string;
  description?: string;
}

/** Inserts unless the identifier is taken; undefined when it was. */
export async function insertConfigIfAbsent(
  db: Db,
  input: ConfigFields,
  now: string,
): Promise<number | undefined> {
  const row = await db
    .insertInto('sys_configs')
    .values({
      identifier: input.identifier,
      name: input.name,
      value: input.value,
      description: input.description ?? '',
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('identifier').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

export async function updateConfig(db: Db, id: number, input: ConfigFields, now: string): Promise<void> {
  await db
    .updateTable('sys_configs')
    .set({
      identifier: input.identifier,
      name: input.name,
      value: input.value,
      ...(input.description !== undefined ? { description: input.description } : {}),
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
}

export async function deleteConfig(db: Db, id: number): Promise<void> {
  await db.deleteFrom('sys_configs').where('id', '=', id).execute();
}
