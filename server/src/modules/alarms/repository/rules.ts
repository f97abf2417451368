import type { AlarmCondition, AlarmRule, Severity } from '@kilowatch/contract';
import { sql } from 'kysely';
import { containsPattern, type Db, pageRows } from '../../../db/sql.ts';

// ---- rules ---------------------------------------------------------------------------------------

/** A rule as the engine and the service use it (the API adds counts). */
export type RuleRecord = Omit<AlarmRule, 'things'>;

export interface RuleRow {
  name: string;
  templateId: number | null;
  categoryId: number | null;
  ability: string;
  condition: AlarmCondition;
  onDelay: number;
  offDelay: number;
  deadband: number;
  severity: Severity;
  message: string;
}

function ruleBase(db: Db) {
  return db
    .selectFrom('alarm_rules as r')
    .leftJoin('alarm_templates as t', 't.id', 'r.template_id')
    .select([
      'r.id',
      'r.name',
      'r.template_id',
      't.name as template_name',
      'r.category_id',
      'r.ability',
      'r.condition',
      'r.on_delay',
      'r.off_delay',
      'r.deadband',
      'r.severity',
      'r.message',
      'r.enabled',
      'r.created_at',
      'r.updated_at',
    ]);
}

type RuleSelect = Awaited<ReturnType<ReturnType<typeof ruleBase>['executeTakeFirstOrThrow']>>;

function toRule(r: RuleSelect): RuleRecord {
  return {
    id: r.id,
    name: r.name,
    templateId: r.template_id,
    templateName: r.template_name ?? '',
    categoryId: r.category_id,
    ability: r.ability,
    condition: JSON.parse(r.condition) as AlarmCondition,
    onDelay: r.on_delay,
    offDelay: r.off_delay,
    deadband: Number(r.deadband),
    severity: r.severity as Severity,
    message: r.message,
    enabled: r.enabled === 1,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export async function listRules(
  db: Db,
  query: { page: number; pageSize: number; name?: string | undefined; templateId?: number | undefined },
): Promise<{ list: RuleRecord[]; total: number }> {
  let base = ruleBase(db);
  if (query.name)
    base = base.where(sql<boolean>`lower(r.name) like ${containsPattern(query.name)} escape '\\'`);
  if (query.templateId !== undefined) base = base.where('r.template_id', '=', query.templateId);
  const { rows, total } = await pageRows(base, (q) => q.orderBy('r.id'), query);
  return { list: rows.map(toRule), total };
}

export async function findRule(db: Db, id: number): Promise<RuleRecord | undefined> {
  const row = await ruleBase(db).where('r.id', '=', id).executeTakeFirst();
  return row && toRule(row);
}

/** Every enabled rule: what the engine evaluates. */
export async function enabledRules(db: Db): Promise<RuleRecord[]> {
  return (await ruleBase(db).where('r.enabled', '=', 1).orderBy('r.id').execute()).map(toRule);
}

const ruleColumns = (rule: RuleRow) => ({
  name: rule.name,
  template_id: rule.templateId,
  category_id: rule.categoryId,
  ability: rule.ability,
  condition: JSON.stringify(rule.condition),
  on_delay: rule.onDelay,
  off_delay: rule.offDelay,
  deadband: rule.deadband,
  severity: rule.severity,
  message: rule.message,
});

export async function insertRule(db: Db, rule: RuleRow, now: string): Promise<number> {
  const { id } = await db
    .insertInto('alarm_rules')
    .values({ ...ruleColumns(rule), enabled: 0, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateRule(db: Db, id: number, rule: RuleRow, now: string): Promise<boolean> {
  const result = await db
    .updateTable('alarm_rules')
    .set({ ...ruleColumns(rule), updated_at: now })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function setRuleEnabled(db: Db, id: number, enabled: boolean, now: string): Promise<boolean> {
  const result = await db
    .updateTable('alarm_rules')
    .set({ enabled: enabled ? 1 : 0, updated_at: now })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deletes a rule and the monitors applying it; its history stays (names were copied into it). */
export async function deleteRule(db: Db, id: number): Promise<boolean> {
  await db
    .deleteFrom('alarm_monitors')
    .where('applied_type', '=', 'rule')
    .where('applied_id', '=', id)
    .execute();
  const result = await db.deleteFrom('alarm_rules').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
