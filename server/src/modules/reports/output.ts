import {
  componentQueries,
  type Language,
  type Period,
  type PlantCalendar,
  type QueryResult,
  type ReportComponent,
} from '@kilowatch/contract';
import ExcelJS from 'exceljs';
import { type MessageKey, translate } from '../../i18n/index.ts';

/** Answers one telemetry query (the query service's `data`). */
export type AskQuery = (
  query: NonNullable<ReturnType<typeof componentQueries>>[number],
) => Promise<QueryResult>;

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
}

/** Two decimals (spec §9), also in the file. */
export const NUMBER_FORMAT = '#,##0.00';
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

/**
 * A report over one period as xlsx: one sheet per component with a row per bucket (labelled on
 * the plant calendar, spec §9) and a column per metric and series, each followed by its
 * comparison when the component has one; units in the headers, two-decimal number formats, the
 * header row frozen, texts in the caller's language. The numbers come from the same telemetry
 * queries the console draws (`componentQueries`), comparisons included.
 */
export async function reportWorkbook(input: ReportOutputInput): Promise<Buffer> {
  const { language, calendar, period, time } = input;
  const t = (key: MessageKey, params?: Record<string, string | number>) => translate(language, key, params);
  const range = input.range ?? calendar.periodRange(period, time);
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Kilowatch';
  workbook.title = input.name;
  const taken = new Set<string>();

  for (const component of input.components) {
    const sheet = workbook.addWorksheet(sheetName(component.title, taken), {
      views: [{ state: 'frozen', ySplit: 1, xSplit: 1 }],
    });
    const queries = componentQueries(component, period, time, calendar, input.range) ?? [];
    const answers = await Promise.all(queries.map((q) => input.ask(q)));
    const compareLabel = t(`reports.yoy.${component.yoy.option}`);

    // Columns: each metric's series (a region answers one, `combine: none` several), then its comparison.
    const columns: { header: string; values: Map<number, number | null> }[] = [];
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
      const groups = byGroup(answer.result);
      const compared = answer.compare ? byGroup(answer.compare.result) : null;
      const several = groups.size > 1 || (compared?.size ?? 0) > 1;
      const named = (group: string) => (several ? `${name} · ${group}` : name);
      for (const [group, values] of groups) {
        columns.push({ header: title(named(group)), values });
        const other = compared?.get(group);
        if (compared)
          columns.push({ header: title(`${named(group)} · ${compareLabel}`), values: other ?? new Map() });
      }
      if (groups.size === 0) {
        columns.push({ header: title(name), values: new Map() });
        if (compared) columns.push({ header: title(`${name} · ${compareLabel}`), values: new Map() });
      }
    });

    sheet.columns = [
      { header: t('reports.xlsx.time', { zone: input.timeZone }), key: 'time', width: 22 },
      ...columns.map((c, i) => ({
        header: c.header,
        key: `c${i}`,
        width: Math.max(14, c.header.length + 4),
      })),
    ];
    sheet.getRow(1).font = { bold: true };
    const ordered = [...keys].filter((k) => k >= range.start && k < range.end).sort((a, b) => a - b);
    for (const key of ordered) {
      const row: Record<string, string | number | null> = { time: label(calendar, period, key) };
      columns.forEach((c, i) => {
        row[`c${i}`] = c.values.get(key) ?? null;
      });
      sheet.addRow(row);
    }
    for (let i = 0; i < columns.length; i++) sheet.getColumn(i + 2).numFmt = NUMBER_FORMAT;
  }

  if (input.components.length === 0) {
    workbook.addWorksheet(sheetName(input.name, taken)).addRow([t('reports.xlsx.empty')]);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Spec §9 labels: a year's months YYYY-MM, a month's days MM-DD, a day's hours HH:00; finer buckets show the time. */
function label(calendar: PlantCalendar, period: Period, key: number): string {
  const whole = calendar.periodLabel(period, key);
  return period === 'day' && calendar.format(key, 'mm') !== '00' ? calendar.format(key, 'HH:mm') : whole;
}
