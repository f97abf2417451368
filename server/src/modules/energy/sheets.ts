import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { csvLine, type ExportFormat, inertText, STATISTICS_DECIMALS } from '@kilowatch/contract';
import ExcelJS from 'exceljs';
import { slicer } from '../../shared/slices.ts';

/**
 * The one xlsx/CSV writer of energy's files: the statistics exports (standard grid, ERP list) and
 * the KPI reports' workbooks (reports/workbook-worker.ts). Rows go to a stream one by one
 * (exceljs' streaming workbook, or CSV lines), so a file of any length is never held whole in
 * memory. Every text cell is formula-safe in both formats: one starting with = + - @, a tab or a
 * carriage return gets a leading apostrophe (contract csv.ts), so a device named `=HYPERLINK(…)`
 * never becomes a formula. Numbers keep their full value; they show 2 decimals through the number
 * format, and CSV prints them with 2 decimals.
 */

export type Cell = string | number | null;

export const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const CSV = 'text/csv; charset=utf-8';
/** Two decimals (spec §9) with thousands separators: the numbers' format unless a column names another. */
export const NUMBER_FORMAT = `#,##0.${'0'.repeat(STATISTICS_DECIMALS)}`;
/** Whole numbers: counts (启动次数 in 次, 产量 in 件) read whole, as the console shows them. */
export const COUNT_FORMAT = '#,##0';

/** Rows written between two waits for the reader (a chunk's worth of lines, some 100 KB). */
const ROWS_PER_WAIT = 500;

/** Numbers in CSV: 2 decimals; text goes through the one writer the console's exports use too. */
const csvNumber = (value: number): string => value.toFixed(STATISTICS_DECIMALS);

interface SheetSpec {
  name: string;
  /** Columns and rows kept in view; the first row after the heading is the bold header. */
  frozen?: { x: number; y: number };
  widths?: number[];
  /**
   * Lines above the table, the first a title (xlsx only: a CSV is its table); the table starts on
   * the row after `frozen.y - 1` rows, blank ones filling what the lines leave.
   */
  heading?: readonly string[];
  /** Each column's number format (reports: two decimals or whole counts); undefined for text. */
  formats?: readonly (string | undefined)[];
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

function xlsxWriter(out: Writable, title?: string): TableWriter {
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
  if (title !== undefined) workbook.title = title;
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
      const formats = spec.formats ?? spec.numbers?.map((n) => (n ? NUMBER_FORMAT : undefined));
      const count = Math.max(spec.widths?.length ?? 0, formats?.length ?? 0);
      if (count) {
        sheet.columns = Array.from({ length: count }, (_, i) => {
          const numFmt = formats?.[i];
          return { width: spec.widths?.[i] ?? 12, ...(numFmt ? { style: { numFmt } } : {}) };
        });
      }
      styled = formats !== undefined;
      spec.heading?.forEach((text, i) => {
        const line = (sheet as ExcelJS.Worksheet).addRow([inertText(text)]);
        if (i === 0) line.font = { bold: true, size: 14 };
        line.commit();
      });
      const blank = (spec.frozen?.y ?? 1) - 1 - (spec.heading?.length ?? 0);
      if (spec.heading) for (let i = 0; i < blank; i++) sheet.addRow([]).commit();
      bold = spec.frozen !== undefined;
    },
    async row(cells) {
      if (out.destroyed) throw new ReaderGone();
      if (!sheet) throw new Error('row before sheet');
      const added = sheet.addRow(cells.map((v) => (typeof v === 'string' ? inertText(v) : (v ?? null))));
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

/** A writer of `format` to `out`; `title` is the xlsx's document title (its properties). */
export const tableWriter = (format: ExportFormat, out: Writable, title?: string): TableWriter =>
  format === 'csv' ? csvWriter(out) : xlsxWriter(out, title);

export const contentTypeOf = (format: ExportFormat) => (format === 'csv' ? CSV : XLSX);
