import type { EffectiveAbility, MetricConfig, MetricConfigPatch, ResourceType } from '@kilowatch/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import type { Catalog } from '../catalog/index.ts';
import * as repo from './repository.ts';

/** Colours of new metric configs, in order (the first is the console's theme colour). */
const PALETTE = ['#409EFF', '#67C23A', '#E6A23C', '#F56C6C', '#909399', '#9B59B6', '#1ABC9C', '#34495E'];

export interface MetricConfigDeps {
  db: Kysely<DB>;
  /** The thing's, or the region's things', effective abilities (what a config may name). */
  catalog: Pick<Catalog, 'select' | 'categoryAbilities'>;
  now: () => number;
}

const unknownMetric = (metric: string, resourceType: ResourceType) =>
  new AppError('UNPROCESSABLE', 422, { metric, resource: resourceType }, { message: 'query.unknownMetric' });

/**
 * Metric configs (spec §3): which metrics a resource's charts show, with name, colour and unit,
 * per thing or region and optionally per category.
 */
export function createMetricConfigService(deps: MetricConfigDeps) {
  const { db, now } = deps;

  return {
    async configs(key: repo.ConfigKey): Promise<MetricConfig[]> {
      return repo.listConfigs(db, key);
    },

    /** Replaces a resource's configs; metrics must be abilities of the thing (or region's things). */
    async saveConfigs(patch: MetricConfigPatch): Promise<MetricConfig[]> {
      const key: repo.ConfigKey = {
        resourceType: patch.resourceType,
        resourceId: patch.resourceId,
        categoryId: patch.categoryId ?? null,
      };
      const { abilities } = await deps.catalog.select({
        resourceType: patch.resourceType,
        id: patch.resourceId,
        categoryId: key.categoryId ?? undefined,
        successor: true,
      });
      const known = new Map<string, EffectiveAbility>();
      for (const list of abilities.values()) {
        for (const a of list) if (!known.has(a.identifier)) known.set(a.identifier, a);
      }
      if (known.size === 0 && key.categoryId !== null) {
        for (const a of await deps.catalog.categoryAbilities(key.categoryId)) {
          known.set(a.identifier, { ...a, abilityId: a.id, overridden: false });
        }
      }
      // A region with nothing bound yet (and no category) has nothing to check against.
      const check = patch.resourceType === 'thing' || known.size > 0;
      const seen = new Set<string>();
      const values = patch.configs.map((c, index): repo.ConfigValues => {
        if (seen.has(c.metricIdentifier)) {
          throw new AppError(
            'UNPROCESSABLE',
            422,
            { metric: c.metricIdentifier },
            { message: 'query.duplicateMetric' },
          );
        }
        seen.add(c.metricIdentifier);
        const ability = known.get(c.metricIdentifier);
        if (check && !ability) throw unknownMetric(c.metricIdentifier, patch.resourceType);
        const aggregator = c.aggregator ?? ability?.aggregator ?? 'avg';
        const name = c.name ?? c.metricName ?? ability?.name ?? c.metricIdentifier;
        return {
          metricIdentifier: c.metricIdentifier,
          metricName: c.metricName ?? ability?.name ?? name,
          name,
          enabled: c.enabled,
          unit: c.unit ?? ability?.unit ?? '',
          aggregator,
          function: c.function ?? aggregator,
          color: c.color ?? (PALETTE[index % PALETTE.length] as string),
          sort: index,
        };
      });
      const at = new Date(now()).toISOString();
      await db.transaction().execute((trx) => repo.replaceConfigs(trx, key, values, at));
      return repo.listConfigs(db, key);
    },
  };
}

export type MetricConfigService = ReturnType<typeof createMetricConfigService>;
