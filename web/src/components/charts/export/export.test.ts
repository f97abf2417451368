import { parse as parseCsv } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { ChartSeries } from '../series.ts';
import { toCsv } from './csv.ts';
import { exportFileName, formatZoned, type Sheet, seriesSheet } from './sheet.ts';
import { toXlsx } from './xlsx.ts';

const MIN = 60_000;
/** 10:00 on 2026-11-22 in Shanghai (UTC+8). */
const T0 = Date.parse('2026-11-22T02:00:00Z');
const ZONE = 'Asia/Shanghai';
const labels = {
  time: '时间',
  incomplete: '数据不完整',
  missing: (series: string, names: string) => `${series}（缺少：${names}）`,
};
const series: ChartSeries[] = [
  {
    name: '一车间',
    unit: 'kW',
    points: [
      { key: T0, value: 12.345678, complete: true },
      { key: T0 + MIN, value: 13, complete: false, missing: ['电表2', '电表3'] },
    ],
  },
  { name: '温度', unit: '℃', points: [{ key: T0 + MIN, value: -4.5, complete: true }] },
];

describe('exports read back cell by cell', () => {
  const sheet = seriesSheet('历史数据', series, labels, ZONE);

  it('lays the series out by time with units, the plant zone and who was missing', () => {
    expect(sheet.columns.map((c) => c.header)).toEqual([
      '时间 (Asia/Shanghai)',
      '一车间 (kW)',
      '温度 (℃)',
      '数据不完整',
    ]);
    expect(sheet.rows).toEqual([
      [T0, 12.345678, null, null],
      [T0 + MIN, 13, -4.5, '一车间（缺少：电表2, 电表3）'],
    ]);
  });

  it('writes CSV with a BOM, plant times, full-precision numbers and inert formulas', async () => {
    const withFormula: Sheet = {
      ...sheet,
      rows: [...sheet.rows, [T0 + 2 * MIN, null, 1, '=HYPERLINK("x","y"), "quoted"']],
    };
    const steps: number[] = [];
    const text = await toCsv(withFormula, ZONE, (done) => steps.push(done));
    expect(text.startsWith('\uFEFF')).toBe(true);
    expect(parseCsv(text.slice(1), { record_delimiter: '\r\n' })).toEqual([
      ['时间 (Asia/Shanghai)', '一车间 (kW)', '温度 (℃)', '数据不完整'],
      ['2026-11-22 10:00:00', '12.345678', '', ''],
      ['2026-11-22 10:01:00', '13', '-4.5', '一车间（缺少：电表2, 电表3）'],
      ['2026-11-22 10:02:00', '', '1', `'=HYPERLINK("x","y"), "quoted"`],
    ]);
    expect(steps.at(-1)).toBe(3);
  });

  it('writes xlsx with real dates at the plant wall clock, numbers and a bold frozen header', async () => {
    const buffer = await toXlsx(sheet, ZONE);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(buffer);
    const ws = book.worksheets[0]!;
    expect(ws.name).toBe('历史数据');
    expect(ws.rowCount).toBe(3);
    expect((ws.getRow(1).values as unknown[]).slice(1)).toEqual([
      '时间 (Asia/Shanghai)',
      '一车间 (kW)',
      '温度 (℃)',
      '数据不完整',
    ]);
    expect(ws.getRow(1).font?.bold).toBe(true);
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    const time = ws.getCell('A2').value as Date;
    expect(time).toBeInstanceOf(Date);
    // The cell shows 10:00, the plant's wall clock, whatever the zone of the exporting browser.
    expect(time.toISOString()).toBe('2026-11-22T10:00:00.000Z');
    expect(ws.getCell('A2').numFmt).toBe('yyyy-mm-dd hh:mm:ss');
    expect(ws.getCell('B2').value).toBe(12.345678);
    expect(ws.getCell('B2').numFmt).toBe('0.00');
    expect(ws.getCell('C2').value).toBeNull();
    expect(ws.getCell('B3').value).toBe(13);
    expect(ws.getCell('C3').value).toBe(-4.5);
    expect(ws.getCell('D3').value).toBe('一车间（缺少：电表2, 电表3）');
  });

  it('prints times and file names in the plant zone', () => {
    expect(formatZoned(T0, ZONE)).toBe('2026-11-22 10:00:00');
    expect(formatZoned(T0, 'UTC')).toBe('2026-11-22 02:00:00');
    expect(exportFileName('功率 / 电表:1', 'csv', T0, ZONE)).toBe('功率_电表_1-20261122-1000.csv');
  });
});
