import type {
  CircleMetrics,
  StatisticsConfig,
  StatisticsConfigInput,
  StatisticsScope,
} from '@kilowatch/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/index.ts';
import { AppError } from '../../../errors.ts';
import type { Catalog } from '../../catalog/index.ts';

/** The owner of the plant's config row; users' rows are owned by their id. */
const PLANT = 0;

interface Stored {
  items: StatisticsConfig['items'];
  circle: CircleMetrics;
}

const DEFAULT: Stored = { items: [], circle: {} };

/**
 * Which metrics the statistics screen offers (docs/statistics.md): a user's own config, else the
 * plant's, else the default (every cumulative ability; the circle found by its metrics' names).
 */
export function createStatisticsConfigs(deps: {
  db: Kysely<DB>;
  catalog: Pick<Catalog, 'categoryAbilities'>;
  now: () => number;
}) {
  const { db } = deps;

  const row = (owner: number) =>
    db.selectFrom('statistics_configs').selectAll().where('owner', '=', owner).executeTakeFirst();

  async function read(userId: number, scope: StatisticsScope): Promise<StatisticsConfig> {
    const own = scope === 'user' ? await row(userId) : undefined;
    const found = own ?? (await row(PLANT));
    if (!found) return { source: 'default', ...DEFAULT, updatedAt: null };
    const stored = JSON.parse(found.value) as Stored;
    return { source: own ? 'user' : 'plant', ...stored, updatedAt: found.updated_at };
  }

  async function check(input: StatisticsConfigInput): Promise<void> {
    const seen = new Set<number>();
    for (const item of input.items) {
      if (seen.has(item.categoryId)) {
        throw new AppError(
          'UNPROCESSABLE',
          422,
          { categoryId: item.categoryId },
          { message: 'statistics.duplicateCategory' },
        );
      }
      seen.add(item.categoryId);
      const known = new Set((await deps.catalog.categoryAbilities(item.categoryId)).map((a) => a.identifier));
      const unknown = item.identifiers.find((i) => !known.has(i));
      if (unknown !== undefined) {
        throw new AppError(
          'UNPROCESSABLE',
          422,
          { identifier: unknown, categoryId: item.categoryId },
          { message: 'statistics.unknownIdentifier' },
        );
      }
    }
  }

  return {
    async get(userId: number, query: { scope?: StatisticsScope; categoryId?: number[] }) {
      const config = await read(userId, query.scope ?? 'user');
      const only = query.categoryId;
      return only?.length
        ? { ...config, items: config.items.filter((i) => only.includes(i.categoryId)) }
        : config;
    },

    /** The circle's identifiers the caller's config names (the names decide the rest). */
    async circle(userId: number): Promise<CircleMetrics> {
      return (await read(userId, 'user')).circle;
    },

    async save(userId: number, input: StatisticsConfigInput): Promise<StatisticsConfig> {
      await check(input);
      const owner = input.scope === 'plant' ? PLANT : userId;
      const value = JSON.stringify({ items: input.items, circle: input.circle ?? {} } satisfies Stored);
      const at = new Date(deps.now()).toISOString();
      await db
        .insertInto('statistics_configs')
        .values({ owner, value, updated_at: at })
        .onConflict((oc) => oc.column('owner').doUpdateSet({ value, updated_at: at }))
        .execute();
      return read(userId, input.scope);
    },
  };
}

export type StatisticsConfigs = ReturnType<typeof createStatisticsConfigs>;
