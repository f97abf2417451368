import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, login, type TestApp } from '../../../../test/helpers.ts';
import { type Plant, seedPlant } from '../../../ingest/testing.ts';
import { editorWith, roleGranting } from '../../system/testing.ts';
import { type Api, apiAs } from '../../things/testing.ts';

// biome-ignore lint/suspicious/noExplicitAny: tests read whatever the body holds
type Body = any;

/** `YYYY-MM-DD HH:mm` in the plant's zone (Asia/Shanghai, UTC+8). */
const sh = (text: string) => Date.parse(`${text.replace(' ', 'T')}:00+08:00`);

describe.each(dialects())('KPI reports on %s', (dialect) => {
  let t: TestApp;
  let api: Api;
  let english: Api;
  let spanish: Api;
  let keeper: Api;
  let reader: Api;
  let plant: Plant;
  const ok = async <T = Body>(p: Promise<{ status: number; body: Body }>): Promise<T> => {
    const res = await p;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as T;
  };
  const power = (extra: Record<string, unknown> = {}) => ({
    identifier: 'P',
    name: '有功功率',
    statistics: 'avg',
    unit: 'kW',
    ...extra,
  });

  beforeAll(async () => {
    t = await buildTestApp(dialect, { env: { PLANT_TIMEZONE: 'Asia/Shanghai' } });
    const { token } = await login(t.app);
    api = apiAs(() => t.app, token);
    english = apiAs(() => t.app, token, { 'accept-language': 'en' });
    spanish = apiAs(() => t.app, token, { 'accept-language': 'es' });
    plant = await seedPlant(api, 1);
    const roleId = await roleGranting(api, 'kpi-editor', ['/analysis/kpi']);
    const withGrant = await editorWith(() => t.app, api, 'kpi-keeper', [roleId]);
    keeper = withGrant.api as unknown as Api;
    reader = (await editorWith(() => t.app, api, 'kpi-reader')).api as unknown as Api;
    const at = (ts: number, value: number) => ({ thingId: plant.things[0]!.id, metric: 'P', ts, value });
    await t.app.telemetry.write([
      at(sh('2026-11-20 09:10'), 5),
      at(sh('2026-11-21 09:10'), 10),
      at(sh('2026-11-21 09:40'), 20),
      at(sh('2026-11-14 09:10'), 7),
      // A Saturday of October: Saturday 14 November's counterpart when weekdays line up.
      at(sh('2026-10-17 09:10'), 42),
    ]);
  });
  afterAll(async () => {
    await t.close();
  });

  it('builds a tree from the root (0): folders hold folders and reports, levels counted from 1', async () => {
    const folder = await ok(api.post('/api/reports/0/children', { name: '能耗', folder: true }));
    expect(folder).toMatchObject({ parentId: null, folder: true, report: false, level: 1, published: false });
    const sub = await ok(api.post(`/api/reports/${folder.id}/children`, { name: '车间', folder: true }));
    const report = await ok(api.post(`/api/reports/${sub.id}/children`, { name: '日报', folder: false }));
    expect(report).toMatchObject({ parentId: sub.id, level: 3, report: true });
    const tree = await ok<Body[]>(api.get('/api/reports'));
    const top = tree.find((n) => n.id === folder.id);
    expect(top.children[0]).toMatchObject({ id: sub.id, level: 2 });
    expect(top.children[0].children[0]).toMatchObject({ id: report.id, name: '日报' });

    // A report holds no children; the root's parent does not exist.
    const refused = await english.post(`/api/reports/${report.id}/children`, { name: 'x', folder: false });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe('Items can only be placed in a folder, not in a report');
    expect((await api.post('/api/reports/999999/children', { name: 'x', folder: true })).status).toBe(404);
    const blank = await spanish.post('/api/reports/0/children', { name: '', folder: true });
    expect(blank.status).toBe(400);
  });

  it('renames and moves with PATCH, never into itself', async () => {
    const a = await ok(api.post('/api/reports/0/children', { name: 'A', folder: true }));
    const b = await ok(api.post(`/api/reports/${a.id}/children`, { name: 'B', folder: true }));
    const into = await api.patch(`/api/reports/${a.id}`, { parentId: b.id });
    expect(into.status).toBe(422);
    expect(into.body.message).toBe('不能移到自身或其下级文件夹中');
    const moved = await ok(api.patch(`/api/reports/${b.id}`, { parentId: 0, name: 'B2' }));
    expect(moved).toMatchObject({ parentId: null, name: 'B2', level: 1 });
  });

  it('adds components with params, metrics, formula and scale; lays them out in bulk and one by one', async () => {
    const report = await ok(api.post('/api/reports/0/children', { name: '组件', folder: false }));
    const base = `/api/reports/${report.id}/components`;
    const first = await ok(
      api.post(base, {
        title: '功率',
        chartType: 'line',
        params: { thingId: plant.things[0]!.id },
        metrics: [power({ formula: 'x * 1000', scale: 1, unit: 'W', categoryId: plant.categoryId })],
      }),
    );
    expect(first).toMatchObject({ layout: { x: 0, y: 0, w: 6, h: 8 }, yoy: { option: 'none' } });
    const second = await ok(
      api.post(base, {
        title: '饼图',
        chartType: 'pie',
        yoy: { option: 'lastWeek' },
        params: { thingId: plant.things[0]!.id },
        metrics: [power()],
      }),
    );
    // Beside the first while half the grid is free there.
    expect(second.layout).toEqual({ x: 6, y: 0, w: 6, h: 8 });
    const third = await ok(
      api.post(base, {
        title: '第三',
        chartType: 'operation',
        params: { thingId: plant.things[0]!.id },
        metrics: [power()],
      }),
    );
    // The row is full: below everything.
    expect(third.layout).toEqual({ x: 0, y: 8, w: 6, h: 8 });
    await ok(api.del(`${base}/${third.id}`));

    const badFormula = await english.post(base, {
      title: 'x',
      chartType: 'bar',
      params: { thingId: plant.things[0]!.id },
      metrics: [power({ formula: 'x * (2' })],
    });
    expect(badFormula.status).toBe(422);
    expect(badFormula.body.message).toMatch(/^The formula of metric "有功功率" is invalid: expected "\)"/);
    const noTarget = await spanish.post(base, {
      title: 'x',
      chartType: 'bar',
      params: {},
      metrics: [power()],
    });
    expect(noTarget.status).toBe(422);
    expect(noTarget.body.message).toBe('Un componente necesita un dispositivo o una región (uno de los dos)');
    const unknown = await api.post(base, {
      title: 'x',
      chartType: 'bar',
      params: { thingId: plant.things[0]!.id },
      metrics: [power({ identifier: 'NOPE' })],
    });
    expect(unknown.status).toBe(422);

    const laid = await ok<Body[]>(
      api.put(base, [
        { id: first.id, layout: { x: 6, y: 0, w: 6, h: 6 } },
        { id: second.id, layout: { x: 0, y: 0, w: 6, h: 6 } },
      ]),
    );
    expect(laid.map((c) => [c.id, c.layout.x])).toEqual([
      [second.id, 0],
      [first.id, 6],
    ]);
    const patched = await ok(
      api.patch(`${base}/${first.id}`, { yoy: { option: 'yesterday' }, layout: { x: 11, y: 6, w: 4, h: 5 } }),
    );
    // A place wider than what is left of its row moves left, into the grid.
    expect(patched).toMatchObject({ yoy: { option: 'yesterday' }, layout: { x: 8, y: 6, w: 4, h: 5 } });
    const byCategory = await ok<Body[]>(api.get(`${base}?categoryId=${plant.categoryId}`));
    expect(byCategory.map((c) => c.id)).toEqual([first.id]);
    expect((await api.put(base, [{ id: 999999, layout: { x: 0, y: 0, w: 1, h: 1 } }])).status).toBe(422);
    expect((await ok(api.del(`${base}/${second.id}`))).ok).toBe(true);
    expect((await api.del(`${base}/${second.id}`)).status).toBe(404);
  });

  it('publishes: read-only for editors with the grant, only an admin takes it back, admins still edit', async () => {
    const folder = await ok(keeper.post('/api/reports/0/children', { name: '发布', folder: true }));
    const report = await ok(
      keeper.post(`/api/reports/${folder.id}/children`, { name: '月报', folder: false }),
    );
    const base = `/api/reports/${report.id}/components`;
    const component = await ok(
      keeper.post(base, {
        title: '功率',
        chartType: 'bar',
        params: { thingId: plant.things[0]!.id },
        metrics: [power()],
      }),
    );
    // Without the grant an editor reads and exports, and changes nothing.
    expect((await reader.get(base)).status).toBe(200);
    expect((await reader.post(base, {})).status).toBe(403);

    const published = await ok(keeper.post(`/api/reports/${report.id}/publish`, {}));
    expect(published.published).toBe(true);
    const refused = await keeper.patch(`${base}/${component.id}`, { title: '改' });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('报表“月报”已发布，只读；请管理员取消发布后再修改');
    expect((await keeper.patch(`/api/reports/${report.id}`, { name: '改' })).status).toBe(409);
    // A folder holding a published report cannot be deleted, renamed or moved by an editor either.
    expect((await keeper.del(`/api/reports/${folder.id}`)).status).toBe(409);
    const renamed = await keeper.patch(`/api/reports/${folder.id}`, { name: '改名' });
    expect(renamed.status).toBe(409);
    expect(renamed.body.message).toBe('报表“月报”已发布，只读；请管理员取消发布后再修改');
    const top = await ok(keeper.post('/api/reports/0/children', { name: '别处', folder: true }));
    expect((await keeper.patch(`/api/reports/${folder.id}`, { parentId: top.id })).status).toBe(409);
    expect(
      (await api.get('/api/reports')).body.data.find((n: { id: number }) => n.id === folder.id),
    ).toMatchObject({ name: folder.name, parentId: null });
    expect((await api.patch(`/api/reports/${folder.id}`, { name: folder.name })).status).toBe(200);
    await ok(keeper.del(`/api/reports/${top.id}`));
    expect((await keeper.post(`/api/reports/${report.id}/publish`, { published: false })).status).toBe(403);
    expect((await api.patch(`${base}/${component.id}`, { title: '管理员改' })).status).toBe(200);

    const back = await ok(api.post(`/api/reports/${report.id}/publish`, { published: false }));
    expect(back.published).toBe(false);
    const gone = await ok(keeper.del(`/api/reports/${folder.id}`));
    expect(gone).toEqual({ ok: true, deleted: 2 });
    expect((await api.get(base)).status).toBe(404);
  });

  it('exports a report as xlsx: a sheet per component, series and comparison, labels, units, 2 decimals', async () => {
    const report = await ok(api.post('/api/reports/0/children', { name: '导出', folder: false }));
    const base = `/api/reports/${report.id}/components`;
    await ok(
      api.post(base, {
        title: '功率 日对比',
        chartType: 'line',
        yoy: { option: 'yesterday' },
        params: { thingId: plant.things[0]!.id },
        metrics: [power({ formula: 'x / 3', scale: 4 })],
      }),
    );
    await ok(
      api.post(base, {
        title: '功率 周对比',
        chartType: 'bar',
        yoy: { option: 'lastWeek' },
        params: { thingId: plant.things[0]!.id },
        metrics: [power()],
      }),
    );
    const res = await english.post('/api/statistics/report/output', {
      reportId: report.id,
      period: 'day',
      time: sh('2026-11-21 12:00'),
    });
    expect(res.status).toBe(200);
    expect(res.res.headers['content-type']).toContain('spreadsheetml');
    expect(res.res.headers['content-disposition']).toContain(encodeURIComponent('导出-2026-11-21'));
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.res.rawPayload as unknown as ArrayBuffer);
    expect(book.worksheets.map((s) => s.name)).toEqual(['功率 日对比', '功率 周对比']);

    const day = book.getWorksheet('功率 日对比')!;
    expect(day.getCell('A1').value).toMatch(/^导出.* · 功率 日对比$/);
    expect(day.getCell('A2').value).toBe('Period: 2026-11-21 (Asia/Shanghai)');
    expect(day.getCell('A3').value).toMatch(/^Plant: /);
    expect(day.getRow(5).values).toEqual([
      undefined,
      'Time (Asia/Shanghai)',
      '有功功率 (kW)',
      '有功功率 · Yesterday (kW)',
    ]);
    expect(day.views[0]).toMatchObject({ state: 'frozen', ySplit: 5 });
    expect(day.rowCount).toBe(29);
    expect(day.getCell('A6').value).toBe('00:00');
    expect(day.getCell('A15').value).toBe('09:00');
    // 09:00 holds 10 and 20 (mean 15), / 3 = 5; yesterday 5 / 3 = 1.6667 (scale 4), in the file
    // as the console shows it: 1.67.
    expect(day.getCell('B15').value).toBe(5);
    expect(day.getCell('C15').value).toBe(1.67);
    expect(day.getCell('B15').numFmt).toBe('#,##0.00');
    expect(day.getCell('C15').numFmt).toBe('#,##0.00');
    expect(day.getCell('B14').value).toBe(null);

    const week = book.getWorksheet('功率 周对比')!;
    expect(week.getCell('C5').value).toBe('有功功率 · Last week (kW)');
    expect(week.getCell('B15').value).toBe(15);
    expect(week.getCell('C15').value).toBe(7);

    const zh = await api.post('/api/statistics/report/output', {
      reportId: report.id,
      period: 'month',
      time: sh('2026-11-21 12:00'),
    });
    const monthBook = new ExcelJS.Workbook();
    await monthBook.xlsx.load(zh.res.rawPayload as unknown as ArrayBuffer);
    const month = monthBook.worksheets[0]!;
    expect(month.getCell('A5').value).toBe('时间（Asia/Shanghai）');
    expect(month.getCell('C5').value).toBe('有功功率 · 昨日 (kW)');
    expect(month.rowCount).toBe(35);
    expect(month.getCell('A26').value).toBe('11-21');
  });

  it('month on month lines weekdays up when the component asks (align), not otherwise', async () => {
    const report = await ok(api.post('/api/reports/0/children', { name: '环比', folder: false }));
    const base = `/api/reports/${report.id}/components`;
    const component = await ok(
      api.post(base, {
        title: '环比',
        chartType: 'bar',
        yoy: { option: 'monthOnMonth', align: true },
        params: { thingId: plant.things[0]!.id },
        metrics: [power()],
      }),
    );
    const monthSheet = async () => {
      const res = await api.post('/api/statistics/report/output', {
        reportId: report.id,
        period: 'month',
        time: sh('2026-11-21 12:00'),
      });
      expect(res.status).toBe(200);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(res.res.rawPayload as unknown as ArrayBuffer);
      const sheet = book.worksheets[0]!;
      const row = sheet.getColumn(1).values.indexOf('11-14');
      return { header: sheet.getCell('C5').value, nov14: sheet.getCell(`C${row}`).value };
    };
    // November 1 is a Sunday, October 1 a Thursday: aligned, the comparison starts 3 days later,
    // so Saturday 14 November meets Saturday 17 October.
    expect(await monthSheet()).toEqual({ header: '有功功率 · 上月 (kW)', nov14: 42 });
    await ok(api.patch(`${base}/${component.id}`, { yoy: { option: 'monthOnMonth' } }));
    expect((await monthSheet()).nov14).toBe(null);
  });

  it('exports a folder: 422; an unknown report: 404', async () => {
    const folder = await ok(api.post('/api/reports/0/children', { name: '夹', folder: true }));
    expect(
      (await api.post('/api/statistics/report/output', { reportId: folder.id, period: 'day' })).status,
    ).toBe(422);
    expect(
      (await api.post('/api/statistics/report/output', { reportId: 999999, period: 'day' })).status,
    ).toBe(404);
  });
});
