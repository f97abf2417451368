import type { ErpConfig, PlantCalendar, StatisticsResult, Thing } from '@kilowatch/contract';
import type { MessageKey } from '../../../i18n/index.ts';
import type { TariffService } from '../bills/service.ts';
import type { ErpChunk, PeriodCost } from './exports.ts';

type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;
type PeriodEnergy = { energy: number; cost: number; unpriced: number };

export interface ErpInput {
  things: readonly Thing[];
  config: ErpConfig;
  /** The statistics range of some of the things (consumption per period). */
  read: (things: readonly Thing[]) => Promise<StatisticsResult>;
  tariffs: Pick<TariffService, 'get' | 'costByPeriod'>;
  size: number;
  t: Translate;
}

/**
 * The cost of a period from the tariff's pricing of it: energy on days a version covers at its
 * band prices, the rest at the flat price. A period the tariff saw no energy in (none recorded
 * at its slots) keeps the flat price when the statistics still counted some.
 */
export function periodCost(consumption: number | null, priced: PeriodEnergy, flat: number): PeriodCost {
  const seen = priced.energy + priced.unpriced;
  if (consumption === null) return { cost: null, price: null, basis: 'tariff' };
  if (seen === 0) {
    return consumption === 0
      ? { cost: 0, price: null, basis: 'tariff' }
      : { cost: consumption * flat, price: flat, basis: 'flat' };
  }
  const cost = priced.cost + priced.unpriced * flat;
  const basis = priced.unpriced === 0 ? 'tariff' : priced.energy === 0 ? 'flat' : 'mixed';
  return { cost, price: cost / seen, basis };
}

/**
 * The ERP export's rows a chunk of things at a time, each chunk's cost priced by the tariffs
 * erpConfig names (`tariffs` by thing identifier, else `tariffId`) through the tariffs module's
 * own slot pricing; things with no tariff keep erpConfig's flat price. The first chunk is read
 * here, before the answer starts, so its errors (and an unknown tariff's) are normal JSON errors.
 */
export async function erpChunks(
  input: ErpInput,
  calendar: PlantCalendar,
): Promise<{
  first: StatisticsResult;
  chunks: AsyncIterable<ErpChunk>;
  notes: [string, string][];
}> {
  const { config, t } = input;
  const tariffOf = (thing: Thing): number | null =>
    config.tariffs?.[thing.identifier] ?? config.tariffId ?? null;
  const tariffIds = [...new Set(input.things.map(tariffOf))].filter((id): id is number => id !== null);
  const names = await Promise.all(tariffIds.map(async (id) => (await input.tariffs.get(id)).name));

  async function chunk(list: readonly Thing[]): Promise<ErpChunk> {
    const result = await input.read(list);
    // Only consumption has a price: another aggregate (an average, a maximum) keeps the flat one.
    if (tariffIds.length === 0 || result.aggregator !== 'delta') return { result };
    const byId = new Map(list.map((thing) => [thing.id, thing]));
    const priced = new Map<number, PeriodEnergy[]>();
    for (const id of tariffIds) {
      const group = list.filter((thing) => tariffOf(thing) === id);
      if (group.length === 0) continue;
      const rows = await input.tariffs.costByPeriod(
        id,
        group,
        result.metricIdentifier,
        result.startTime,
        result.endTime,
        result.keys,
      );
      group.forEach((thing, i) => {
        priced.set(thing.id, rows[i] ?? []);
      });
    }
    const periods = result.series.map((s) => {
      const thing = byId.get(s.resourceId);
      return thing ? priced.get(thing.id) : undefined;
    });
    return {
      result,
      cost: (s, k) => {
        const consumption = result.series[s]?.values[k] ?? null;
        const energy = periods[s]?.[k];
        if (!energy) {
          return {
            cost: consumption === null ? null : consumption * config.price,
            price: config.price,
            basis: 'flat',
          };
        }
        return periodCost(consumption, energy, config.price);
      },
    };
  }

  const lists: Thing[][] = [];
  for (let i = 0; i < input.things.length; i += input.size) lists.push(input.things.slice(i, i + input.size));
  const head = await chunk(lists[0] ?? []);
  async function* chunks(): AsyncIterable<ErpChunk> {
    yield head;
    for (const list of lists.slice(1)) yield await chunk(list);
  }

  const first = head.result;
  const at = (ts: number) => calendar.format(ts, 'YYYY-MM-DD HH:mm');
  const notes: [string, string][] = [];
  if (names.length) {
    notes.push([t('export.basisTariff'), t('export.tariffNote', { names: names.join('、') })]);
  }
  notes.push([
    t('export.basisFlat'),
    t('export.flatNote', { price: config.price, currency: config.currency }),
  ]);
  if (names.length) notes.push([t('export.basisMixed'), t('export.mixedNote')]);
  notes.push([t('export.metric'), `${first.metricName} (${first.metricIdentifier})`]);
  notes.push([t('export.range'), `${at(first.startTime)} – ${at(first.endTime)}`]);
  notes.push([t('export.timeZone'), first.timeZone]);
  return { first, chunks: chunks(), notes };
}
