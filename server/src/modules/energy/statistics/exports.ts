import type { ErpConfig, ErpField, ExportFormat, PlantCalendar, StatisticsResult } from '@kilowatch/contract';
import type { MessageKey } from '../../../i18n/messages.ts';
import type { Cell, TableWriter } from '../sheets.ts';

/**
 * The statistics exports (docs/statistics.md): the standard grid (a row per series, a column per
 * period, totals) and the ERP list (a row per thing and period). Both are written row by row to
 * a stream (exceljs' streaming workbook, or CSV lines), so a file of any length is never held
 * whole in memory. Numbers keep their full value in the cell and show 2 decimals through the
 * number format; CSV prints them with 2 decimals.
 */

type Translate = (key: MessageKey) => string;

/** How a bucket is named in a list of periods: its whole date, in the plant zone. */
const PERIOD_FORMAT: Record<string, string> = {
  hour: 'YYYY-MM-DD HH:00',
  day: 'YYYY-MM-DD',
  month: 'YYYY-MM',
  year: 'YYYY',
};

export const fileName = (
  stem: string,
  result: StatisticsResult,
  format: ExportFormat,
  calendar: PlantCalendar,
) => {
  return `${stem}-${result.metricIdentifier}-${calendar.format(result.startTime, 'YYYYMMDD')}.${format}`;
};

/** Rows of the standard export: the header, the series, the SUM row. */
export const standardRows = (result: StatisticsResult) => 1 + result.series.length + (result.total ? 1 : 0);

/** The standard export: series × periods with the unit, a total column and the SUM row. */
export async function standardExport(
  result: StatisticsResult,
  t: Translate,
  out: TableWriter,
  calendar: PlantCalendar,
) {
  const unit = result.unit ? ` (${result.unit})` : '';
  out.sheet({
    name: t('export.sheet'),
    frozen: { x: 2, y: 1 },
    widths: [24, 16, 8, ...result.labels.map(() => 12), 14],
    numbers: [false, false, false, ...result.labels.map(() => true), true],
  });
  await out.row([
    t('export.name'),
    t('export.identifier'),
    t('export.unit'),
    ...result.labels,
    `${t('export.total')}${unit}`,
  ]);
  for (const s of result.series) await out.row([s.name, s.identifier, result.unit, ...s.values, s.total]);
  if (result.total) {
    await out.row([t('export.sum'), '', result.unit, ...result.total.values, result.total.total]);
  }
  const at = (ts: number) => calendar.format(ts, 'YYYY-MM-DD HH:mm');
  out.sheet({ name: t('export.info'), widths: [16, 48] });
  await out.row([t('export.metric'), `${result.metricName} (${result.metricIdentifier})`]);
  await out.row([t('export.unit'), result.unit]);
  await out.row([t('export.range'), `${at(result.startTime)} – ${at(result.endTime)}`]);
  await out.row([t('export.timeZone'), result.timeZone]);
  await out.end();
}

const NUMBER_FIELDS = new Set<ErpField>(['consumption', 'price', 'cost']);

/** What a thing's energy in one period cost, and how it was priced (docs/statistics.md#erp). */
export interface PeriodCost {
  cost: number | null;
  /** The price shown: the tariff's average over the period's energy, or the flat price. */
  price: number | null;
  basis: CostBasis;
}
/** `tariff`: every kWh priced by the tariff; `flat`: by erpConfig's price; `mixed`: both. */
export type CostBasis = 'tariff' | 'flat' | 'mixed';

/** One chunk of the ERP export: a range read for some things, and their cost per period. */
export interface ErpChunk {
  result: StatisticsResult;
  /** The cost of series `s` in bucket `k`; flat price when no tariff is set. */
  cost?: (s: number, k: number) => PeriodCost;
}

/**
 * The ERP export: one row per thing and period, its columns as the erpConfig setting maps them,
 * written a chunk of things at a time. The xlsx's second sheet says how the cost was priced.
 */
export async function erpExport(
  chunks: AsyncIterable<ErpChunk>,
  config: ErpConfig,
  notes: { basis: (basis: CostBasis) => string; title: string; rows: [string, string][] },
  out: TableWriter,
  calendar: PlantCalendar,
) {
  out.sheet({
    name: config.sheetName,
    frozen: { x: 0, y: 1 },
    widths: config.columns.map(() => 16),
    numbers: config.columns.map((c) => NUMBER_FIELDS.has(c.field)),
  });
  await out.row(config.columns.map((c) => c.header));
  for await (const { result, cost } of chunks) {
    const periodFormat = PERIOD_FORMAT[result.groupByTime] ?? PERIOD_FORMAT.hour!;
    for (const [s, series] of result.series.entries()) {
      for (const [k, key] of result.keys.entries()) {
        const next = result.keys[k + 1] ?? result.endTime;
        const consumption = series.values[k] ?? null;
        const priced: PeriodCost = cost?.(s, k) ?? {
          cost: consumption === null ? null : consumption * config.price,
          price: config.price,
          basis: 'flat',
        };
        const fields: Record<ErpField, Cell> = {
          code: config.codes[series.identifier] ?? '',
          identifier: series.identifier,
          name: series.name,
          period: calendar.format(key, periodFormat),
          start: calendar.format(key, 'YYYY-MM-DD HH:mm'),
          end: calendar.format(Math.min(next, result.endTime), 'YYYY-MM-DD HH:mm'),
          metric: result.metricName,
          consumption,
          unit: result.unit,
          price: priced.price,
          cost: consumption === null ? null : priced.cost,
          currency: config.currency,
          costBasis: consumption === null ? '' : notes.basis(priced.basis),
        };
        await out.row(config.columns.map((c) => fields[c.field]));
      }
    }
  }
  out.sheet({ name: notes.title, widths: [20, 72] });
  for (const row of notes.rows) await out.row(row);
  await out.end();
}
