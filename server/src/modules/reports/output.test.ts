import { PlantCalendar, type QueryResult, type ReportComponent } from '@kilowatch/contract';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
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
      months.map((key, m) => ({ key, value: g + m / 10, group: `M${g}`, complete: true })),
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
});

describe('report workbook', () => {
  it('is built in the worker pool with the sheet, headers, labels and values of the answers', async () => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await reportWorkbook(input(3))) as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('各表用电');
    expect(sheet?.getRow(1).values).toEqual([
      undefined,
      'Time (Asia/Shanghai)',
      '电能 · M0 (kWh)',
      '电能 · M1 (kWh)',
      '电能 · M2 (kWh)',
    ]);
    expect(sheet?.getRow(2).values).toEqual([undefined, '2026-01', 0, 1, 2]);
    expect(sheet?.getRow(13).values).toEqual([undefined, '2026-12', 1.1, 2.1, 3.1]);
    expect(sheet?.getColumn(3).numFmt).toBe('#,##0.00');
    expect(sheet?.views[0]).toMatchObject({ state: 'frozen', xSplit: 1, ySplit: 1 });
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
