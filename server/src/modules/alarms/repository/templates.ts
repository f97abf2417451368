import type { AlarmTemplate } from '@kilowatch/contract';
import { sql } from 'kysely';
import { containsPattern, type Db, pageRows } from '../../../db/sql.ts';

// ---- templates -----------------------------------------------------------------------------------

function templateBase(db: Db) {
  return db.selectFrom('alarm_templates as t').select((eb) => [
    't.id',
    't.name',
    't.category_id',
    't.description',
    't.created_at',
    't.updated_at',
    eb
      .selectFrom('alarm_rules as r')
      .whereRef('r.template_id', '=', 't.id')
      .select((e) => e.fn.countAll<number | string>().as('n'))
      .as('rules'),
  ]);
}

type TemplateSelect = Awaited<ReturnType<ReturnType<typeof templateBase>['executeTakeFirstOrThrow']>>;

/** A template as stored; the service names its category through the catalog. */
export type TemplateRecord = Omit<AlarmTemplate, 'categoryName'>;

const toTemplate = (t: TemplateSelect): TemplateRecord => ({
  id: t.id,
  name: t.name,
  categoryId: t.category_id,
  description: t.description,
  rules: Number(t.rules ?? 0),
  createdAt: t.created_at,
  updatedAt: t.updated_at,
});

export async function listTemplates(
  db: Db,
  query: { page: number; pageSize: number; name?: string | undefined },
): Promise<{ list: TemplateRecord[]; total: number }> {
  let base = templateBase(db);
  if (query.name)
    base = base.where(sql<boolean>`lower(t.name) like ${containsPattern(query.name)} escape '\\'`);
  const { rows, total } = await pageRows(base, (q) => q.orderBy('t.id'), query);
  return { list: rows.map(toTemplate), total };
}

export async function findTemplate(db: Db, id: number): Promise<TemplateRecord | undefined> {
  const row = await templateBase(db).where('t.id', '=', id).executeTakeFirst();
  return row && toTemplate(row);
}

export async function insertTemplate(
  db: Db,
  template: { name: string; categoryId: number; description: string },
  now: string,
): Promise<number> {
  const { id } = await db
    .insertInto('alarm_templates')
    .values({
      name: template.name,
      category_id: template.categoryId,
      description: template.description,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateTemplate(
  db: Db,
  id: number,
  template: { name: string; categoryId: number; description: string },
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('alarm_templates')
    .set({
      name: template.name,
      category_id: template.categoryId,
      description: template.description,
      updated_at: now,
    })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deletes a template, its rules and every monitor applying either. */
export async function deleteTemplate(db: Db, id: number): Promise<boolean> {
  const rules = db.selectFrom('alarm_rules').select('id').where('template_id', '=', id);
  await db
    .deleteFrom('alarm_monitors')
    .where((eb) =>
      eb.or([
        eb.and([eb('applied_type', '=', 'template'), eb('applied_id', '=', id)]),
        eb.and([eb('applied_type', '=', 'rule'), eb('applied_id', 'in', rules)]),
      ]),
    )
    .execute();
  await db.deleteFrom('alarm_rules').where('template_id', '=', id).execute();
  const result = await db.deleteFrom('alarm_templates').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
