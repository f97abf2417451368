import { once } from 'node:events';
import type { Writable } from 'node:stream';
import {
  csvLine,
  type ErpConfig,
  type ErpField,
  type ExportFormat,
  PlantCalendar,
  STATISTICS_DECIMALS,
  type StatisticsResult,
} from '@kilowatch/contract';
import ExcelJS from 'exceljs';
import type { MessageKey } from '../../../i18n/messages.ts';
import { slicer } from '../../../shared/slices.ts';

/**
 * The statistics exports (docs/statistics.md): the standard grid (a row per series, a column per
 * period, totals) and the ERP list (a row per thing and period). Both are written row by row to
 * a stream (exceljs' streaming workbook, or CSV lines), so a file of any length is never held
 * whole in memory. Numbers keep their full value in the cell and show 2 decimals through the
 * number format; CSV prints them with 2 decimals.
 */

type Translate = (key: MessageKey) => string;
export type Cell = string | number | null;

export const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const CSV = 'text/csv; charset=utf-8';
const NUMBER_FORMAT = `#,##0.${'0'.repeat(STATISTICS_DECIMALS)}`;

/** How a bucket is named in a list of periods: its whole date, in the plant zone. */
const PERIOD_FORMAT: Record<string, string> = {
  hour: 'YYYY-MM-DD HH:00',
  day: 'YYYY-MM-DD',
  month: 'YYYY-MM',
  year: 'YYYY',
};

/** Rows written between two waits for the reader (a chunk's worth of lines, some 100 KB). */
const ROWS_PER_WAIT = 500;

/** Numbers in CSV: 2 decimals; text goes through the one writer the console's exports use too. */
const csvNumber = (value: number): string => value.toFixed(STATISTICS_DECIMALS);

export interface SheetSpec {
  name: string;
  frozen?: { x: number; y: number };
  widths?: number[];
  /**
   * Columns whose numbers show 2 decimals, given as the column's style (cells take it as they are
   * made: cheaper than styling cell by cell). Without it, each number cell gets the format.
   */
  numbers?: readonly boolean[];
}

/**
 * Writes sheets of rows to a stream, as xlsx or CSV. CSV has one table: only the first sheet is
 * written (the others are the xlsx's notes). `row` resolves at once unless the stream's reader is
 * behind, then when it has caught up, so a slow download holds the producer rather than memory.
 */
export interface TableWriter {
  sheet(spec: SheetSpec): void;
  row(cells: readonly Cell[]): Promise<void>;
  end(): Promise<void>;
}

/** The download was cancelled or lost: the export stops at its next row instead of running on. */
export class ReaderGone extends Error {
  constructor() {
    super('the export’s reader has gone');
  }
}

/** Waits until `out` takes more, when its buffer is full (or the reader has gone). */
async function drained(out: Writable): Promise<void> {
  if (!out.writableNeedDrain || out.destroyed) return;
  await new Promise<void>((resolve) => {
    // Both listeners go when either fires: a long export waits thousands of times.
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
  });
}

function xlsxWriter(out: Writable): TableWriter {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    // Fast deflate: the rows compress well at any level, and the CPU is the export's cost.
    zip: { zlib: { level: 1 } },
    useStyles: true,
    // Shared strings keep an empty cell an empty string (inline ones read back as no value);
    // the table holds each distinct text once: names, codes and periods, not rows.
    useSharedStrings: true,
  });
  workbook.creator = 'Kilowatch';
  let sheet: ExcelJS.Worksheet | null = null;
  let bold = false;
  let styled = false;
  let written = 0;
  const pause = slicer();
  return {
    sheet(spec) {
      sheet?.commit();
      sheet = workbook.addWorksheet(spec.name.slice(0, 31), {
        views: spec.frozen ? [{ state: 'frozen', xSplit: spec.frozen.x, ySplit: spec.frozen.y }] : [],
      });
      // Column widths and styles go out with the sheet's first row, so they are set before it.
      const count = Math.max(spec.widths?.length ?? 0, spec.numbers?.length ?? 0);
      if (count) {
        sheet.columns = Array.from({ length: count }, (_, i) => ({
          width: spec.widths?.[i] ?? 12,
          ...(spec.numbers?.[i] ? { style: { numFmt: NUMBER_FORMAT } } : {}),
        }));
      }
      styled = spec.numbers !== undefined;
      bold = spec.frozen !== undefined;
    },
    async row(cells) {
      if (out.destroyed) throw new ReaderGone();
      if (!sheet) throw new Error('row before sheet');
      const added = sheet.addRow(cells.map((v) => v ?? null));
      if (!styled) {
        added.eachCell((cell) => {
          if (typeof cell.value === 'number') cell.numFmt = NUMBER_FORMAT;
        });
      }
      if (bold) added.font = { bold: true };
      bold = false;
      added.commit();
      if (++written % ROWS_PER_WAIT === 0) await drained(out);
      await pause();
    },
    async end() {
      sheet?.commit();
      await workbook.commit();
    },
  };
}

function csvWriter(out: Writable): TableWriter {
  let sheets = 0;
  let written = 0;
  const pause = slicer();
  out.write('\uFEFF');
  return {
    sheet() {
      sheets++;
    },
    async row(cells) {
      if (out.destroyed) throw new ReaderGone();
      if (sheets !== 1) return;
      out.write(`${csvLine(cells, csvNumber)}\r\n`);
      if (++written % ROWS_PER_WAIT === 0) await drained(out);
      await pause();
    },
    async end() {
      out.end();
      await once(out, 'finish');
    },
  };
}

export const tableWriter = (format: ExportFormat, out: Writable): TableWriter =>
  format === 'csv' ? csvWriter(out) : xlsxWriter(out);

export const contentTypeOf = (format: ExportFormat) => (format === 'csv' ? CSV : XLSX);

export const fileName = (stem: string, result: StatisticsResult, format: ExportFormat) => {
  const calendar = new PlantCalendar(result.timeZone);
  return `${stem}-${result.metricIdentifier}-${calendar.format(result.startTime, 'YYYYMMDD')}.${format}`;
};

/** Rows of the standard export: the header, the series, the SUM row. */
export const standardRows = (result: StatisticsResult) => 1 + result.series.length + (result.total ? 1 : 0);

/** The standard export: series × periods with the unit, a total column and the SUM row. */
export async function standardExport(result: StatisticsResult, t: Translate, out: TableWriter) {
  const calendar = new PlantCalendar(result.timeZone);
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
) {
  out.sheet({
    name: config.sheetName,
    frozen: { x: 0, y: 1 },
    widths: config.columns.map(() => 16),
    numbers: config.columns.map((c) => NUMBER_FIELDS.has(c.field)),
  });
  await out.row(config.columns.map((c) => c.header));
  for await (const { result, cost } of chunks) {
    const calendar = new PlantCalendar(result.timeZone);
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
