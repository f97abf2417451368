import type { Aggregator, MetricConfig, ResourceType } from '@kilowatch/contract';
import type { Selectable } from 'kysely';
import type { MetricConfigsTable } from '../../db/schema.ts';
import type { Db } from '../../db/sql.ts';

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

/**
 * Replaces the whole list of `key` (call inside a transaction). An upsert rather than
 * delete-then-insert: concurrent identical writes on PostgreSQL would otherwise collide on the
 * unique index (a duplicate key) where the later one should simply win.
 */
export async function replaceConfigs(
  db: Db,
  key: ConfigKey,
  configs: readonly ConfigValues[],
  now: string,
): Promise<void> {
  const keep = configs.map((c) => c.metricIdentifier);
  let gone = db
    .deleteFrom('metric_configs')
    .where('resource_type', '=', key.resourceType)
    .where('resource_id', '=', key.resourceId)
    .where('category_id', '=', key.categoryId ?? 0);
  if (keep.length > 0) gone = gone.where('metric_identifier', 'not in', keep);
  await gone.execute();
  // One lock order for every writer (by metric), so concurrent writes wait instead of deadlocking.
  const ordered = [...configs].sort((a, b) =>
    a.metricIdentifier < b.metricIdentifier ? -1 : a.metricIdentifier > b.metricIdentifier ? 1 : 0,
  );
  // 15 columns a row: 50 rows stay below every driver's bound-parameter limit.
  for (let i = 0; i < ordered.length; i += 50) {
    await db
      .insertInto('metric_configs')
      .values(
        ordered.slice(i, i + 50).map((c) => ({
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
      .onConflict((oc) =>
        oc
          .columns(['resource_type', 'resource_id', 'category_id', 'metric_identifier'])
          .doUpdateSet((eb) => ({
            metric_name: eb.ref('excluded.metric_name'),
            name: eb.ref('excluded.name'),
            enabled: eb.ref('excluded.enabled'),
            unit: eb.ref('excluded.unit'),
            aggregator: eb.ref('excluded.aggregator'),
            function: eb.ref('excluded.function'),
            color: eb.ref('excluded.color'),
            sort: eb.ref('excluded.sort'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
      )
      .execute();
  }
}
