import { PlantCalendar, type QueryResult, type ReportComponent } from '@kilowatch/contract';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../errors.ts';
import { REPORT_MAX_CELLS, reportWorkbook } from './output.ts';

const calendar = new PlantCalendar('Asia/Shanghai');
const time = Date.parse('2026-06-15T04:00:00Z');
const component = {
  title: '各表用电',
  params: { regionId: 1 },
  yoy: { option: 'none' },
  metrics: [{ identifier: 'EP', name: '电能', statistics: 'delta', unit: 'kWh' }],
} as unknown as ReportComponent;

/** A region answering `groups` series over the period's buckets. */
const answerOf = (groups: number, period: 'year' | 'month') => async (): Promise<QueryResult> => {
  const months = calendar.periodBuckets(period, time);
  return {
    result: Array.from({ length: groups }, (_, g) =>
      // A third decimal the file must not keep: the console shows two.
      months.map((key, m) => ({ key, value: g + m / 10 + 0.0049, group: `M${g}`, complete: true })),
    ).flat(),
    seq: null,
    unit: 'kWh',
    resolution: 'day',
    timeZone: 'Asia/Shanghai',
  };
};

const input = (groups: number, period: 'year' | 'month' = 'year') => ({
  name: '年报',
  components: [component],
  period,
  time,
  language: 'en' as const,
  calendar,
  timeZone: 'Asia/Shanghai',
  ask: answerOf(groups, period),
  plant: '示范工厂',
});

describe('report workbook', () => {
  it('is built in the worker pool with the sheet, headers, labels and values of the answers', async () => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await reportWorkbook(input(3))) as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('各表用电');
    // Title, period and plant above the table, a blank row, then the table's header.
    expect(sheet?.getCell('A1').value).toBe('年报 · 各表用电');
    expect(sheet?.getCell('A2').value).toBe('Period: 2026 (Asia/Shanghai)');
    expect(sheet?.getCell('A3').value).toBe('Plant: 示范工厂');
    expect(sheet?.getRow(4).values).toEqual([]);
    expect(sheet?.getRow(5).values).toEqual([
      undefined,
      'Time (Asia/Shanghai)',
      '电能 · M0 (kWh)',
      '电能 · M1 (kWh)',
      '电能 · M2 (kWh)',
    ]);
    // Numbers rounded to the two decimals shown, kept numbers, each cell in the two-decimal format.
    expect(sheet?.getRow(6).values).toEqual([undefined, '2026-01', 0, 1, 2]);
    expect(sheet?.getRow(17).values).toEqual([undefined, '2026-12', 1.1, 2.1, 3.1]);
    expect(sheet?.getCell('C17').numFmt).toBe('#,##0.00');
    expect(sheet?.views[0]).toMatchObject({ state: 'frozen', xSplit: 1, ySplit: 5 });
  });

  it('shows counts whole, and a week as its dates', async () => {
    const starts = {
      ...component,
      title: '启动',
      metrics: [{ identifier: 'STARTS', name: '启动次数', statistics: 'delta', unit: '次' }],
    } as unknown as ReportComponent;
    const range = { start: Date.parse('2026-06-07T16:00:00Z'), end: Date.parse('2026-06-14T16:00:00Z') };
    const ask = async (): Promise<QueryResult> => ({
      result: calendar
        .periodBuckets('month', time)
        .map((key, d) => ({ key, value: 61_900 + d, group: '', complete: true })),
      seq: null,
      unit: '次',
      resolution: 'day',
      timeZone: 'Asia/Shanghai',
    });
    const workbook = new ExcelJS.Workbook();
    const file = await reportWorkbook({
      ...input(1, 'month'),
      components: [starts],
      range,
      language: 'zh',
      ask,
    });
    await workbook.xlsx.load(file as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('启动');
    expect(sheet?.getCell('A2').value).toBe('周期：2026-06-08~2026-06-14（Asia/Shanghai）');
    expect(sheet?.getCell('A3').value).toBe('厂区：示范工厂');
    expect(sheet?.getCell('A6').value).toBe('06-08');
    expect(sheet?.getCell('B6').value).toBe(61_907);
    expect(sheet?.getCell('B6').numFmt).toBe('#,##0');
  });

  it('refuses a workbook past its cell bound before building it', async () => {
    // June's 30 days × (1 + 6,667) columns: 200,040 cells.
    const groups = Math.ceil(REPORT_MAX_CELLS / 30);
    const refused = reportWorkbook(input(groups, 'month'));
    await expect(refused).rejects.toBeInstanceOf(AppError);
    await expect(refused).rejects.toMatchObject({
      status: 400,
      params: { cells: 30 * (groups + 1), max: REPORT_MAX_CELLS },
      options: { message: 'reports.tooManyCells' },
    });
    // One series fewer fits.
    expect((await reportWorkbook(input(groups - 2, 'month'))).byteLength).toBeGreaterThan(0);
  }, 60_000);
});
