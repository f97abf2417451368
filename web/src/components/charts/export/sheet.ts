import type { ChartSeries } from '../series.ts';

/**
 * What an export writes, independent of the file format: a title, typed columns and rows. Times
 * stay instants (ms) until a writer prints them in the plant's time zone.
 */
type ColumnKind = 'time' | 'number' | 'text';
type Cell = string | number | null;

interface SheetColumn {
  header: string;
  kind: ColumnKind;
}

export interface Sheet {
  title: string;
  columns: SheetColumn[];
  rows: Cell[][];
}

export interface SeriesSheetLabels {
  /** Header of the time column, e.g. 时间. */
  time: string;
  /** Header of the note column of incomplete buckets, e.g. 数据不完整. */
  incomplete: string;
  /** The note of one incomplete series of a row: `功率 (缺少: 电表2)`. */
  missing: (series: string, names: string) => string;
}

/** A column header with its unit: `电表1 (kW)`. */
export const withUnit = (name: string, unit?: string | null) => (unit ? `${name} (${unit})` : name);

/**
 * The series of a chart or data table side by side: one row per bucket (oldest first), the time,
 * one value column per series (its unit in the header), and — when any bucket is incomplete — a
 * last column saying which series were incomplete there and which devices they lacked.
 */
export function seriesSheet(
  title: string,
  series: readonly ChartSeries[],
  labels: SeriesSheetLabels,
  timeZone: string,
): Sheet {
  const keys = new Set<number>();
  const byName = series.map((s) => new Map(s.points.map((p) => [p.key, p] as const)));
  for (const s of series) for (const p of s.points) keys.add(p.key);
  const anyIncomplete = series.some((s) => s.points.some((p) => !p.complete));
  const columns: SheetColumn[] = [
    { header: `${labels.time} (${timeZone})`, kind: 'time' },
    ...series.map((s): SheetColumn => ({ header: withUnit(s.name, s.unit), kind: 'number' })),
    ...(anyIncomplete ? [{ header: labels.incomplete, kind: 'text' as const }] : []),
  ];
  const rows = [...keys]
    .sort((a, b) => a - b)
    .map((key): Cell[] => {
      const notes: string[] = [];
      const values = series.map((s, i) => {
        const p = byName[i]!.get(key);
        if (p && !p.complete) {
          const more = (p.missingCount ?? 0) - (p.missing?.length ?? 0);
          const names = p.missing?.length ? `${p.missing.join(', ')}${more > 0 ? ` … (+${more})` : ''}` : '';
          notes.push(names ? labels.missing(s.name, names) : s.name);
        }
        return p?.value ?? null;
      });
      return [key, ...values, ...(anyIncomplete ? [notes.join('; ') || null] : [])];
    });
  return { title, columns, rows };
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Wall-clock parts of an instant in a time zone (the plant's): year … second. */
export function zonedParts(ms: number, timeZone: string) {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  const parts: Record<string, number> = {};
  for (const p of f.formatToParts(ms)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD HH:mm:ss` in the given zone. */
export function formatZoned(ms: number, timeZone: string): string {
  const p = zonedParts(ms, timeZone);
  return `${p.year}-${pad(p.month)}-${pad(p.day)} ${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`;
}

/** A file name from a title and the moment of export: `功率-20261122-1000.xlsx`. */
export function exportFileName(title: string, ext: string, at: number, timeZone: string): string {
  const p = zonedParts(at, timeZone);
  const safe = title.replace(/[\\/:*?"<>|\s]+/g, '_').replace(/^_+|_+$/g, '') || 'export';
  return `${safe}-${p.year}${pad(p.month)}${pad(p.day)}-${pad(p.hour)}${pad(p.minute)}.${ext}`;
}
