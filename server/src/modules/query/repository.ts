import type { Aggregator, MetricConfig, ResourceType } from '@kilowatch/contract';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { DB } from '../../db/index.ts';
import type { MetricConfigsTable } from '../../db/schema.ts';

type Db = Kysely<DB> | Transaction<DB>;

/** Which list of metric configs: a resource, optionally narrowed to one category (0 = none). */
export interface ConfigKey {
  resourceType: ResourceType;
  resourceId: number;
  categoryId: number | null;
}

export type ConfigValues = Omit<MetricConfig, 'id' | 'resourceType' | 'resourceId' | 'categoryId'>;

const toConfig = (row: Selectable<MetricConfigsTable>): MetricConfig => ({
  id: row.id,
  resourceType: row.resource_type as ResourceType,
  resourceId: row.resource_id,
  categoryId: row.category_id === 0 ? null : row.category_id,
  metricIdentifier: row.metric_identifier,
  metricName: row.metric_name,
  name: row.name,
  enabled: row.enabled === 1,
  unit: row.unit,
  aggregator: row.aggregator as Aggregator,
  function: row.function,
  color: row.color,
  sort: row.sort,
});

export async function listConfigs(db: Db, key: ConfigKey): Promise<MetricConfig[]> {
  const rows = await db
    .selectFrom('metric_configs')
    .selectAll()
    .where('resource_type', '=', key.resourceType)
    .where('resource_id', '=', key.resourceId)
    .where('category_id', '=', key.categoryId ?? 0)
    .orderBy('sort')
    .orderBy('id')
    .execute();
  return rows.map(toConfig);
}

/** Replaces the whole list of `key` (call inside a transaction). */
export async function replaceConfigs(
  db: Db,
  key: ConfigKey,
  configs: readonly ConfigValues[],
  now: string,
): Promise<void> {
  await db
    .deleteFrom('metric_configs')
    .where('resource_type', '=', key.resourceType)
    .where('resource_id', '=', key.resourceId)
    .where('category_id', '=', key.categoryId ?? 0)
    .execute();
  // 15 columns a row: 50 rows stay below every driver's bound-parameter limit.
  for (let i = 0; i < configs.length; i += 50) {
    await db
      .insertInto('metric_configs')
      .values(
        configs.slice(i, i + 50).map((c) => ({
          resource_type: key.resourceType,
          resource_id: key.resourceId,
          category_id: key.categoryId ?? 0,
          metric_identifier: c.metricIdentifier,
          metric_name: c.metricName,
          name: c.name,
          enabled: c.enabled ? 1 : 0,
          unit: c.unit,
          aggregator: c.aggregator,
          function: c.function,
          color: c.color,
          sort: c.sort,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  }
}
