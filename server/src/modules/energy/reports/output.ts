import {
  componentQueries,
  type Language,
  type Period,
  type PlantCalendar,
  type QueryResult,
  type ReportComponent,
} from '@kilowatch/contract';
import { AppError } from '../../../errors.ts';
import { type MessageKey, translate } from '../../../i18n/index.ts';
import { slicer } from '../../../shared/slices.ts';
import { runInWorker } from '../../../shared/worker-pool.ts';
import { COUNT_FORMAT, NUMBER_FORMAT } from '../sheets.ts';

/** Answers one telemetry query (the query service's `data`). */
type AskQuery = (query: NonNullable<ReturnType<typeof componentQueries>>[number]) => Promise<QueryResult>;

export interface ReportOutputInput {
  name: string;
  components: readonly ReportComponent[];
  period: Period;
  time: number;
  language: Language;
  calendar: PlantCalendar;
  timeZone: string;
  ask: AskQuery;
  /** The stretch covered when it is not the whole period holding `time` (a scheduled week). */
  range?: { start: number; end: number };
  /** The plant's name (its first root region), said above each sheet's table; null without one. */
  plant: string | null;
}

/** Units of things counted, not measured (the console's `formatReading`). */
const COUNT_UNITS = new Set(['次', '件', '个', '台', 'times', 'pcs']);
/** Rows above each sheet's table: title, period, plant, then a blank row. */
export const HEADING_ROWS = 4;
const SHEET_NAME_MAX = 31;

/** A sheet name Excel accepts (no []:*?/\, at most 31 characters) and unique in the workbook. */
function sheetName(title: string, taken: Set<string>): string {
  const base =
    title
      .replace(/[[\]:*?/\\]/g, ' ')
      .trim()
      .slice(0, SHEET_NAME_MAX) || 'Sheet';
  let name = base;
  for (let n = 2; taken.has(name.toLowerCase()); n++) {
    const suffix = ` (${n})`;
    name = base.slice(0, SHEET_NAME_MAX - suffix.length) + suffix;
  }
  taken.add(name.toLowerCase());
  return name;
}

/** One sheet of a report's workbook, as plain data: it is built in a worker (workbook-worker.ts). */
interface ReportSheet {
  name: string;
  /** Lines above the table (title, period, plant), one row each, then a blank row. */
  heading: string[];
  /** The first column's header (the bucket), then one per series with its number format. */
  columns: { header: string; width: number; numFmt?: string }[];
  /** A row per bucket: its label, then each column's value. */
  rows: (string | number | null)[][];
}

/** The workbook as the worker builds it. */
export interface ReportBook {
  title: string;
  sheets: ReportSheet[];
  /** A sheet saying the report is empty, when it has no components. */
  empty?: { name: string; text: string };
}

/**
 * Most cells (rows × columns, over all sheets) of one report's workbook: the rows cross to the
 * worker in one message, a copy made on the event loop (docs/reports.md#limits).
 */
export const REPORT_MAX_CELLS = 200_000;

/** The built workbook, off the event loop. */
const WORKBOOK_WORKER = new URL('./workbook-worker.ts', import.meta.url);

/**
 * A report over one period as xlsx: one sheet per component with a row per bucket (labelled on
 * the plant calendar, spec §9) and a column per metric and series, each followed by its
 * comparison when the component has one; units in the headers, two-decimal number formats, the
 * header row frozen, texts in the caller's language. The numbers come from the same telemetry
 * queries the console draws (`componentQueries`), comparisons included. The sheets are gathered
 * here a component at a time; the workbook is written in a worker.
 */
export async function reportWorkbook(input: ReportOutputInput): Promise<Buffer> {
  const book = await reportBook(input);
  const cells = book.sheets.reduce((n, sheet) => n + sheet.rows.length * sheet.columns.length, 0);
  if (cells > REPORT_MAX_CELLS) {
    throw new AppError(
      'BAD_REQUEST',
      400,
      { cells, max: REPORT_MAX_CELLS },
      { message: 'reports.tooManyCells' },
    );
  }
  const bytes = await runInWorker<Uint8Array>(WORKBOOK_WORKER, book);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The sheets of a report over one period (see `reportWorkbook`). */
async function reportBook(input: ReportOutputInput): Promise<ReportBook> {
  const { language, calendar, period, time } = input;
  const t = (key: MessageKey, params?: Record<string, string | number>) => translate(language, key, params);
  const range = input.range ?? calendar.periodRange(period, time);
  const taken = new Set<string>();
  const sheets: ReportSheet[] = [];
  const pause = slicer();
  const periodText = input.range
    ? `${calendar.dateOf(range.start)}~${calendar.dateOf(range.end - 1)}`
    : period === 'day'
      ? calendar.dateOf(range.start)
      : calendar.format(range.start, period === 'month' ? 'YYYY-MM' : 'YYYY');

  for (const component of input.components) {
    await pause();
    const name = sheetName(component.title, taken);
    const queries = componentQueries(component, period, time, calendar, input.range) ?? [];
    const answers = await Promise.all(queries.map((q) => input.ask(q)));
    const compareLabel = t(`reports.yoy.${component.yoy.option}`);

    // Columns: each metric's series (a region answers one, `combine: none` several), then its comparison.
    const columns: { header: string; values: Map<number, number | null>; count: boolean }[] = [];
    const keys = new Set<number>();
    answers.forEach((answer, index) => {
      const metric = component.metrics[index];
      if (!metric) return;
      const unit = metric.unit || answer.unit;
      const title = (name: string) => (unit ? `${name} (${unit})` : name);
      const byGroup = (points: readonly { key: number; value: number | null; group: string }[]) => {
        const groups = new Map<string, Map<number, number | null>>();
        for (const p of points) {
          const values = groups.get(p.group) ?? new Map<number, number | null>();
          values.set(p.key, p.value);
          groups.set(p.group, values);
          keys.add(p.key);
        }
        return groups;
      };
      const name = metric.name || metric.identifier;
      const count = COUNT_UNITS.has(unit ?? '');
      const groups = byGroup(answer.result);
      const compared = answer.compare ? byGroup(answer.compare.result) : null;
      const several = groups.size > 1 || (compared?.size ?? 0) > 1;
      const named = (group: string) => (several ? `${name} · ${group}` : name);
      for (const [group, values] of groups) {
        columns.push({ header: title(named(group)), values, count });
        const other = compared?.get(group);
        if (compared)
          columns.push({
            header: title(`${named(group)} · ${compareLabel}`),
            values: other ?? new Map(),
            count,
          });
      }
      if (groups.size === 0) {
        columns.push({ header: title(name), values: new Map(), count });
        if (compared) columns.push({ header: title(`${name} · ${compareLabel}`), values: new Map(), count });
      }
    });

    const ordered = [...keys].filter((k) => k >= range.start && k < range.end).sort((a, b) => a - b);
    // A count column reads whole when all its values are whole, as the console shows it.
    const decimals = columns.map((c) =>
      c.count && [...c.values.values()].every((v) => v === null || Number.isInteger(v)) ? 0 : 2,
    );
    sheets.push({
      name,
      heading: [
        `${input.name} · ${component.title}`,
        t('reports.xlsx.period', { period: periodText, zone: input.timeZone }),
        t('reports.xlsx.plant', { name: input.plant ?? '—' }),
      ],
      columns: [
        { header: t('reports.xlsx.time', { zone: input.timeZone }), width: 22 },
        ...columns.map((c, i) => ({
          header: c.header,
          width: Math.max(14, c.header.length + 4),
          numFmt: decimals[i] === 0 ? COUNT_FORMAT : NUMBER_FORMAT,
        })),
      ],
      // Numbers rounded to the decimals shown (the console's and the cell format's), kept numbers.
      rows: ordered.map((key) => [
        label(calendar, period, key),
        ...columns.map((c, i) => roundTo(c.values.get(key) ?? null, decimals[i] as number)),
      ]),
    });
  }

  return {
    title: input.name,
    sheets,
    ...(input.components.length === 0
      ? { empty: { name: sheetName(input.name, taken), text: t('reports.xlsx.empty') } }
      : {}),
  };
}

const roundTo = (v: number | null, decimals: number): number | null => {
  if (v === null) return null;
  const f = 10 ** decimals;
  // Math.round rounds half towards +∞: a negative half is rounded away from zero like the display.
  return (Math.sign(v) * Math.round(Math.abs(v) * f)) / f;
};

/** Spec §9 labels: a year's months YYYY-MM, a month's days MM-DD, a day's hours HH:00; finer buckets show the time. */
function label(calendar: PlantCalendar, period: Period, key: number): string {
  const whole = calendar.periodLabel(period, key);
  return period === 'day' && calendar.format(key, 'mm') !== '00' ? calendar.format(key, 'HH:mm') : whole;
}
