import {
  type ErpConfig,
  type ErpField,
  type ExportFormat,
  PlantCalendar,
  STATISTICS_DECIMALS,
  type StatisticsResult,
} from '@kilowatch/contract';
import ExcelJS from 'exceljs';
import type { MessageKey } from '../../i18n/messages.ts';

/**
 * The statistics exports (docs/statistics.md): the standard grid (a row per series, a column per
 * period, totals) and the ERP list (a row per thing and period). Numbers keep their full value in
 * the cell and show 2 decimals through the number format; CSV prints them with 2 decimals.
 */

export interface ExportFile {
  body: Buffer;
  contentType: string;
  filename: string;
}

type Translate = (key: MessageKey) => string;
type Cell = string | number | null;

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const NUMBER_FORMAT = `#,##0.${'0'.repeat(STATISTICS_DECIMALS)}`;

/** How a bucket is named in a list of periods: its whole date, in the plant zone. */
const PERIOD_FORMAT: Record<string, string> = {
  hour: 'YYYY-MM-DD HH:00',
  day: 'YYYY-MM-DD',
  month: 'YYYY-MM',
  year: 'YYYY',
};

const csvCell = (value: Cell): string => {
  if (value === null) return '';
  if (typeof value === 'number') return value.toFixed(STATISTICS_DECIMALS);
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
};

/** CSV with a BOM, so Excel opens Chinese headers as UTF-8. */
const toCsv = (rows: readonly (readonly Cell[])[]): Buffer =>
  Buffer.from(`\uFEFF${rows.map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n`, 'utf8');

async function toXlsx(
  sheets: {
    name: string;
    rows: readonly (readonly Cell[])[];
    frozen?: { x: number; y: number };
    widths?: number[];
  }[],
): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Kilowatch';
  for (const s of sheets) {
    const sheet = workbook.addWorksheet(s.name.slice(0, 31), {
      views: s.frozen ? [{ state: 'frozen', xSplit: s.frozen.x, ySplit: s.frozen.y }] : [],
    });
    for (const row of s.rows) {
      const added = sheet.addRow(row.map((v) => v ?? null));
      added.eachCell((cell) => {
        if (typeof cell.value === 'number') cell.numFmt = NUMBER_FORMAT;
      });
    }
    if (s.frozen) sheet.getRow(1).font = { bold: true };
    s.widths?.forEach((w, i) => {
      sheet.getColumn(i + 1).width = w;
    });
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const fileName = (stem: string, result: StatisticsResult, format: ExportFormat) => {
  const calendar = new PlantCalendar(result.timeZone);
  return `${stem}-${result.metricIdentifier}-${calendar.format(result.startTime, 'YYYYMMDD')}.${format}`;
};

/** The standard export: series × periods with the unit, a total column and the SUM row. */
export async function standardExport(
  result: StatisticsResult,
  t: Translate,
  format: ExportFormat,
): Promise<ExportFile> {
  const calendar = new PlantCalendar(result.timeZone);
  const unit = result.unit ? ` (${result.unit})` : '';
  const header: Cell[] = [
    t('export.name'),
    t('export.identifier'),
    t('export.unit'),
    ...result.labels,
    `${t('export.total')}${unit}`,
  ];
  const rows: Cell[][] = [header];
  for (const s of result.series) {
    rows.push([s.name, s.identifier, result.unit, ...s.values, s.total]);
  }
  if (result.total) rows.push([t('export.sum'), '', result.unit, ...result.total.values, result.total.total]);
  const at = (ts: number) => calendar.format(ts, 'YYYY-MM-DD HH:mm');
  const info: Cell[][] = [
    [t('export.metric'), `${result.metricName} (${result.metricIdentifier})`],
    [t('export.unit'), result.unit],
    [t('export.range'), `${at(result.startTime)} – ${at(result.endTime)}`],
    [t('export.timeZone'), result.timeZone],
  ];
  if (format === 'csv') {
    return {
      body: toCsv(rows),
      contentType: 'text/csv; charset=utf-8',
      filename: fileName('statistics', result, format),
    };
  }
  const body = await toXlsx([
    {
      name: t('export.sheet'),
      rows,
      frozen: { x: 2, y: 1 },
      widths: [24, 16, 8, ...result.labels.map(() => 12), 14],
    },
    { name: t('export.info'), rows: info, widths: [16, 48] },
  ]);
  return { body, contentType: XLSX, filename: fileName('statistics', result, format) };
}

/**
 * The ERP export: one row per thing and period, its columns as the erpConfig setting maps them.
 * Cost is consumption × the flat price of the setting; the tariff calendars will price it.
 */
export async function erpExport(
  result: StatisticsResult,
  config: ErpConfig,
  format: ExportFormat,
): Promise<ExportFile> {
  const calendar = new PlantCalendar(result.timeZone);
  const periodFormat = PERIOD_FORMAT[result.groupByTime] ?? PERIOD_FORMAT.hour!;
  const rows: Cell[][] = [config.columns.map((c) => c.header)];
  for (const s of result.series) {
    result.keys.forEach((key, i) => {
      const next = result.keys[i + 1] ?? result.endTime;
      const consumption = s.values[i] ?? null;
      const fields: Record<ErpField, Cell> = {
        code: config.codes[s.identifier] ?? '',
        identifier: s.identifier,
        name: s.name,
        period: calendar.format(key, periodFormat),
        start: calendar.format(key, 'YYYY-MM-DD HH:mm'),
        end: calendar.format(Math.min(next, result.endTime), 'YYYY-MM-DD HH:mm'),
        metric: result.metricName,
        consumption,
        unit: result.unit,
        price: config.price,
        cost: consumption === null ? null : consumption * config.price,
        currency: config.currency,
      };
      rows.push(config.columns.map((c) => fields[c.field]));
    });
  }
  if (format === 'csv') {
    return {
      body: toCsv(rows),
      contentType: 'text/csv; charset=utf-8',
      filename: fileName('erp', result, format),
    };
  }
  const body = await toXlsx([
    { name: config.sheetName, rows, frozen: { x: 0, y: 1 }, widths: config.columns.map(() => 16) },
  ]);
  return { body, contentType: XLSX, filename: fileName('erp', result, format) };
}
