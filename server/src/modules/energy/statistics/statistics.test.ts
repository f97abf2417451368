import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, dialects, login, type TestApp } from '../../../../test/helpers.ts';
import { type Client, client, editorWith } from '../../system/testing.ts';
import { seedDevices } from '../../things/testing.ts';
import { exampleTariff, exampleVersion } from '../tariffs/testing.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
/** Local midnight of 2026-11-20 in Europe/Berlin (UTC+1). */
const NOV20 = Date.parse('2026-11-19T23:00:00Z');
/** Local midnight of 2026-10-25 in Europe/Berlin, the day clocks go back: 25 hours long. */
const OCT25 = Date.parse('2026-10-24T22:00:00Z');
const OCT26 = Date.parse('2026-10-25T23:00:00Z');

describe.each(dialects())('statistics API on %s', (dialect) => {
  let t: TestApp;
  let admin: Client;
  let token: string;
  let m1: { id: number; identifier: string };
  let m2: { id: number; identifier: string };
  let m3: { id: number; identifier: string };
  let compressor: { id: number };
  let categoryId: number;
  let r1: number;
  let r2: number;

  const range = async (body: Record<string, unknown>, api: Client = admin) => {
    const res = await api.post('/api/statistics/range', body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };
  const file = (url: string, payload: unknown, language = 'zh') =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { ...bearer(token), 'accept-language': language },
      payload: payload as object,
    });
  const workbookOf = async (body: Buffer) => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(body as unknown as ArrayBuffer);
    return workbook;
  };

  beforeAll(async () => {
    t = await buildTestApp(dialect, { env: { PLANT_TIMEZONE: 'Europe/Berlin' } });
    token = (await login(t.app)).token;
    admin = client(() => t.app, token);
    const devices = await seedDevices(admin, 3);
    categoryId = devices.category.id;
    [m1, m2, m3] = devices.things;
    r1 = (await admin.post('/api/regions', { name: '一车间' })).body.data.id;
    r2 = (await admin.post('/api/regions', { name: '一号线', parentId: r1 })).body.data.id;
    await admin.post(`/api/regions/${r1}/bindings`, { thingIds: [m1.id] });
    await admin.post(`/api/regions/${r2}/bindings`, { thingIds: [m2.id] });

    // A compressor publishing the status counters of the demo plant (运行时长/启动次数/停机时长).
    const cat = (await admin.post('/api/thing/categories', { name: '空压机', description: '' })).body.data;
    for (const [identifier, name, unit] of [
      ['runHours', '运行时长', 'h'],
      ['startups', '启动次数', '次'],
      ['stopHours', '停机时长', 'h'],
    ]) {
      await admin.post(`/api/thing/categories/${cat.id}/abilities`, {
        identifier,
        name,
        unit,
        cumulative: true,
      });
    }
    const model = (await admin.post('/api/thing/models', { categoryId: cat.id, name: 'GA75' })).body.data;
    compressor = (
      await admin.post('/api/thing/things', { identifier: 'AC-01', name: '空压机1', modelId: model.id })
    ).body.data;
    await admin.post(`/api/regions/${r2}/bindings`, { thingIds: [compressor.id] });

    const at = (thingId: number, metric: string, list: [number, number][]) =>
      list.map(([ts, value]) => ({ thingId, metric, ts, value }));
    await t.app.telemetry.write([
      // m1: a counter that resets at 02:30 on Nov 20.
      ...at(m1.id, 'EP', [
        [NOV20 - 30 * MIN, 1000],
        [NOV20 + 30 * MIN, 1010],
        [NOV20 + 90 * MIN, 1030],
        [NOV20 + 150 * MIN, 12],
        [NOV20 + 210 * MIN, 20],
        [NOV20 + 23 * HOUR + 30 * MIN, 50],
        [NOV20 + 24 * HOUR + 30 * MIN, 60],
      ]),
      // m2: one kWh an hour at half past, from before the DST day to after it.
      ...at(
        m2.id,
        'EP',
        Array.from({ length: 28 }, (_, i): [number, number] => [OCT25 - 90 * MIN + i * HOUR, 100 + i]),
      ),
      ...at(m2.id, 'EP', [
        [NOV20 + 10 * MIN, 130],
        [NOV20 + 70 * MIN, 134],
      ]),
      ...at(compressor.id, 'runHours', [
        [NOV20 + 10 * MIN, 100],
        [NOV20 + 10 * HOUR, 106.5],
      ]),
      ...at(compressor.id, 'stopHours', [
        [NOV20 + 10 * MIN, 40],
        [NOV20 + 10 * HOUR, 43.25],
      ]),
      ...at(compressor.id, 'startups', [
        [NOV20 + 10 * MIN, 7],
        [NOV20 + 10 * HOUR, 10],
      ]),
    ]);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers consumption by hour across a counter reset, with HH:00 labels and the SUM line', async () => {
    const data = await range({
      resourceType: 'thing',
      resourceIds: [m1.id, m2.id],
      metricIdentifier: 'EP',
      period: 'day',
      startTime: NOV20 + 5 * HOUR,
    });
    expect(data).toMatchObject({
      unit: 'kWh',
      aggregator: 'delta',
      timeZone: 'Europe/Berlin',
      groupByTime: 'hour',
    });
    expect(data.startTime).toBe(NOV20);
    expect(data.endTime).toBe(NOV20 + 24 * HOUR);
    expect(data.keys).toHaveLength(24);
    expect(data.labels.slice(0, 3)).toEqual(['00:00', '01:00', '02:00']);
    const [one, two] = data.series;
    expect(one).toMatchObject({ name: '电表1', identifier: 'M1', hasMetric: true, total: 80 });
    // The drop from 1030 to 12 is a reset: it counts 12, not −1018.
    expect(one.values.slice(0, 5)).toEqual([10, 20, 12, 8, null]);
    expect(one.values[23]).toBe(30);
    expect(two.values.slice(0, 2)).toEqual([3, 4]);
    expect(data.total.values.slice(0, 5)).toEqual([13, 24, 12, 8, null]);
    expect(data.total.total).toBe(87);
  });

  it('counts a 25-hour DST day in the plant zone, by hour and within its month', async () => {
    const day = await range({
      resourceType: 'thing',
      resourceIds: [m2.id],
      metricIdentifier: 'EP',
      period: 'day',
      startTime: OCT25 + 12 * HOUR,
    });
    expect(day.startTime).toBe(OCT25);
    expect(day.endTime).toBe(OCT26);
    expect(day.keys).toHaveLength(25);
    expect(day.labels.slice(0, 5)).toEqual(['00:00', '01:00', '02:00', '02:00', '03:00']);
    expect(day.series[0].total).toBe(25);

    const month = await range({
      resourceType: 'thing',
      resourceIds: [m2.id],
      metricIdentifier: 'EP',
      period: 'month',
      startTime: OCT25,
    });
    expect(month.labels[24]).toBe('10-25');
    expect(month.series[0].values.slice(23, 26)).toEqual([1, 25, 1]);

    // Year on year through the query's compare: October held against November, day by day.
    const november = await range({
      resourceType: 'thing',
      resourceIds: [m2.id],
      metricIdentifier: 'EP',
      period: 'month',
      startTime: NOV20,
      compare: { shift: { amount: -1, unit: 'month' } },
    });
    expect(november.compare.startTime).toBe(Date.parse('2026-09-30T22:00:00Z'));
    expect(november.series[0].compare.values[24]).toBe(25);
    expect(november.total.compare.values[24]).toBe(25);
  });

  it('sums regions with their sub-regions, by year in months', async () => {
    const data = await range({
      resourceType: 'region',
      resourceIds: [r1, r2],
      metricIdentifier: 'EP',
      period: 'year',
      startTime: NOV20,
    });
    expect(data.labels).toContain('2026-11');
    const nov = data.labels.indexOf('2026-11');
    expect(data.series.map((s: { name: string }) => s.name)).toEqual(['一车间', '一号线']);
    // 一车间 holds m1 and (through 一号线) m2: Nov 20–21 of m1 (80 + 10) and m2's 3 + 4.
    expect(data.series[0].values[nov]).toBe(90 + 7);
    expect(data.series[1].values[nov]).toBe(7);
  });

  it('draws the running circle from the status counters', async () => {
    const data = await range({
      resourceType: 'region',
      resourceIds: [r1],
      metricIdentifier: 'EP',
      period: 'day',
      startTime: NOV20,
      circle: true,
    });
    expect(data.circle).toEqual({ running: 6.5, notRunning: 3.25, startupTimes: 3, things: 1 });
  });

  it('refuses a metric no series has, and a backwards range', async () => {
    const bad = await admin.post('/api/statistics/range', {
      resourceType: 'thing',
      resourceIds: [m1.id],
      metricIdentifier: 'nope',
      period: 'day',
    });
    expect(bad.status).toBe(422);
    const backwards = await t.app.inject({
      method: 'POST',
      url: '/api/statistics/range',
      headers: { ...bearer(token), 'accept-language': 'es' },
      payload: {
        resourceType: 'thing',
        resourceIds: [m1.id],
        metricIdentifier: 'EP',
        period: 'day',
        startTime: NOV20,
        endTime: NOV20 - 1,
      },
    });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().message).toBe('El intervalo de la estadística debe terminar después de empezar');
    // A comparison 100,000 years back: a clean 400 in the caller's language, on the range and the file.
    for (const url of ['/api/statistics/range', '/api/statistics/output']) {
      const ancient = await t.app.inject({
        method: 'POST',
        url,
        headers: { ...bearer(token), 'accept-language': 'es' },
        payload: {
          resourceType: 'thing',
          resourceIds: [m1.id],
          metricIdentifier: 'EP',
          period: 'day',
          startTime: NOV20,
          compare: { shift: { amount: -100_000, unit: 'year' } },
        },
      });
      expect(ancient.statusCode, ancient.body).toBe(400);
      expect(ancient.json().message).toBe(
        'La comparación quedaría fuera de los años que se pueden consultar (1970–9999): use un desplazamiento menor',
      );
    }
  });

  it('keeps filter groups: CRUD, validation in three languages, and statistics per filter', async () => {
    const created = await admin.post('/api/filter-groups', {
      name: '对比',
      description: '两条线',
      filters: [
        { name: '一号表', resourceType: 'thing', resourceId: m1.id },
        { resourceType: 'region', resourceId: r2 },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const group = created.body.data;
    expect(
      group.filters.map((f: { name: string; resourceName: string }) => [f.name, f.resourceName]),
    ).toEqual([
      ['一号表', '电表1'],
      ['', '一号线'],
    ]);
    const list = await admin.get('/api/filter-groups');
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({ name: '对比', description: '两条线' });
    expect((await admin.get(`/api/filters?groupId=${group.id}`)).body.data).toHaveLength(2);

    const data = await range({
      resourceType: 'filterGroup',
      resourceIds: [group.id],
      metricIdentifier: 'EP',
      period: 'day',
      startTime: NOV20,
    });
    expect(data.series.map((s: { name: string; total: number }) => [s.name, s.total])).toEqual([
      ['一号表', 80],
      ['一号线', 7],
    ]);

    const message = async (
      payload: object,
      language: string,
      url = '/api/filter-groups',
      method: 'POST' | 'PUT' = 'POST',
    ) => {
      const res = await t.app.inject({
        method,
        url,
        headers: { ...bearer(token), 'accept-language': language },
        payload,
      });
      return [res.statusCode, res.json().message];
    };
    const twice = {
      name: 'x',
      filters: [
        { resourceType: 'thing', resourceId: m1.id },
        { resourceType: 'thing', resourceId: m1.id },
      ],
    };
    expect(await message(twice, 'en')).toEqual([422, `thing ${m1.id} is listed twice in the group`]);
    const unknown = { name: 'x', filters: [{ resourceType: 'thing', resourceId: 99999 }] };
    expect(await message(unknown, 'zh')).toEqual([422, 'thing 99999 不存在']);
    expect(await message({ name: '对比', filters: [] }, 'es')).toEqual([
      409,
      'Ya existe un grupo de filtros llamado «对比»',
    ]);

    const changed = await admin.put(`/api/filter-groups/${group.id}`, {
      name: '对比2',
      filters: [{ resourceType: 'thing', resourceId: m3.id }],
    });
    expect(changed.body.data.filters).toHaveLength(1);
    expect(changed.body.data.name).toBe('对比2');

    const editor = await editorWith(() => t.app, admin, 'viewer1');
    expect((await editor.api.get('/api/filter-groups')).status).toBe(200);
    expect((await editor.api.post('/api/filter-groups', { name: 'e', filters: [] })).status).toBe(403);
    expect((await editor.api.del(`/api/filter-groups/${group.id}`)).status).toBe(403);

    expect((await admin.del(`/api/filter-groups/${group.id}`)).status).toBe(200);
    expect((await admin.get('/api/filters')).body.data).toEqual([]);
    expect((await admin.del(`/api/filter-groups/${group.id}`)).status).toBe(404);
  });

  it('keeps a statistics config per user and for the plant; arrays repeat in the query', async () => {
    expect((await admin.get('/api/statistics/configs/config')).body.data).toMatchObject({
      source: 'default',
      items: [],
    });
    const plant = await admin.put('/api/statistics/configs/config', {
      scope: 'plant',
      items: [{ categoryId, identifiers: ['EP'] }],
      circle: { running: 'runHours' },
    });
    expect(plant.status, JSON.stringify(plant.body)).toBe(200);
    const editor = await editorWith(() => t.app, admin, 'viewer2');
    expect((await editor.api.get('/api/statistics/configs/config')).body.data).toMatchObject({
      source: 'plant',
      items: [{ categoryId, identifiers: ['EP'] }],
    });
    expect(
      (await editor.api.put('/api/statistics/configs/config', { scope: 'plant', items: [] })).status,
    ).toBe(403);
    const own = await editor.api.put('/api/statistics/configs/config', {
      scope: 'user',
      items: [{ categoryId, identifiers: ['P', 'EP'] }],
    });
    expect(own.body.data).toMatchObject({ source: 'user' });
    expect((await editor.api.get('/api/statistics/configs/config?scope=plant')).body.data.source).toBe(
      'plant',
    );
    expect(
      (await editor.api.get(`/api/statistics/configs/config?categoryId=${categoryId}&categoryId=999`)).body
        .data.items,
    ).toHaveLength(1);
    expect((await editor.api.get('/api/statistics/configs/config?categoryId=999')).body.data.items).toEqual(
      [],
    );

    const wrong = await t.app.inject({
      method: 'PUT',
      url: '/api/statistics/configs/config',
      headers: { ...bearer(token), 'accept-language': 'en' },
      payload: { scope: 'user', items: [{ categoryId, identifiers: ['nope'] }] },
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().message).toBe(`“nope” is not an ability of category ${categoryId}`);
  });

  it('exports the standard xlsx: units, 2-decimal formats, frozen header, the language; CSV too', async () => {
    const body = {
      resourceType: 'thing',
      resourceIds: [m1.id, m2.id],
      metricIdentifier: 'EP',
      period: 'day',
      startTime: NOV20,
    };
    const res = await file('/api/statistics/output', body, 'en');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toContain('statistics-EP-20261120.xlsx');
    const workbook = await workbookOf(res.rawPayload);
    const sheet = workbook.getWorksheet('Energy statistics')!;
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', xSplit: 2, ySplit: 1 });
    const header = sheet.getRow(1).values as unknown[];
    expect(header.slice(1, 6)).toEqual(['Name', 'Identifier', 'Unit', '00:00', '01:00']);
    expect(header[28]).toBe('Total (kWh)');
    const row = (n: number) => sheet.getRow(n).values as unknown[];
    expect(row(2).slice(1, 7)).toEqual(['电表1', 'M1', 'kWh', 10, 20, 12]);
    expect(row(2)[28]).toBe(80);
    expect(sheet.getCell('D2').numFmt).toBe('#,##0.00');
    expect(row(4).slice(1, 4)).toEqual(['Sum', '', 'kWh']);
    expect(row(4)[28]).toBe(87);
    const info = workbook.getWorksheet('About')!;
    expect(info.getCell('B3').value).toBe('2026-11-20 00:00 – 2026-11-21 00:00');
    expect(info.getCell('B4').value).toBe('Europe/Berlin');

    const zh = await workbookOf((await file('/api/statistics/output', body)).rawPayload);
    expect(zh.getWorksheet('能耗统计')!.getCell('A1').value).toBe('名称');

    const csv = await file('/api/statistics/output', { ...body, format: 'csv' }, 'en');
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[1]?.startsWith('电表1,M1,kWh,10.00,20.00,12.00,8.00,,')).toBe(true);
    expect(lines[1]?.endsWith(',80.00')).toBe(true);
  });

  it('exports the ERP layout from the erpConfig setting, one row per thing and period', async () => {
    const erpConfig = {
      columns: [
        { field: 'code', header: 'CostCentre' },
        { field: 'identifier', header: 'Meter' },
        { field: 'period', header: 'Period' },
        { field: 'consumption', header: 'kWh' },
        { field: 'cost', header: 'Amount' },
      ],
      price: 0.5,
      currency: 'CNY',
      sheetName: 'Import',
      codes: { M1: 'CC-001' },
    };
    const refused = await admin.post('/api/sysconfigs', {
      identifier: 'erpConfig',
      name: 'ERP',
      value: '{"columns":[]}',
    });
    expect(refused.status).toBe(400);
    const saved = await admin.post('/api/sysconfigs', {
      identifier: 'erpConfig',
      name: 'ERP',
      value: JSON.stringify(erpConfig),
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const read = await admin.get('/api/sysconfigs?identifier=erpConfig');
    expect(JSON.parse(read.body.data.list[0].value)).toEqual(erpConfig);

    // A region expands to its things (一车间: m1, and m2 through 一号线).
    const res = await file('/api/statistics/report/erp/xlsx', {
      resourceType: 'region',
      resourceIds: [r1],
      metricIdentifier: 'EP',
      period: 'month',
      startTime: NOV20,
    });
    expect(res.statusCode).toBe(200);
    const sheet = (await workbookOf(res.rawPayload)).getWorksheet('Import')!;
    expect(sheet.getRow(1).values).toEqual([undefined, 'CostCentre', 'Meter', 'Period', 'kWh', 'Amount']);
    const rows = sheet.getSheetValues().slice(2) as unknown[][];
    expect(rows).toHaveLength(2 * 30);
    const nov20 = rows.find((r) => r[2] === 'M1' && r[3] === '2026-11-20')!;
    expect(nov20.slice(1)).toEqual(['CC-001', 'M1', '2026-11-20', 80, 40]);
    const m2row = rows.find((r) => r[2] === 'M2' && r[3] === '2026-11-20')!;
    expect(m2row.slice(1)).toEqual(['', 'M2', '2026-11-20', 7, 3.5]);
    const line = sheet.getRow(rows.indexOf(nov20) + 2);
    expect([line.getCell(4).numFmt, line.getCell(5).numFmt]).toEqual(['#,##0.00', '#,##0.00']);
  });

  it('prices the ERP cost by a two-band tariff, the flat price only where no tariff applies', async () => {
    // Valley 00–08 at 0.3, peak 08–24 at 1.0, every day.
    const twoBands = [
      { band: 'valley', from: '00:00', to: '08:00' },
      { band: 'peak', from: '08:00', to: '24:00' },
    ] as const;
    const version = exampleVersion('2026-01-01', {
      prices: { valley: 0.3, peak: 1 },
      seasons: [
        {
          name: '全年',
          from: '01-01',
          to: '12-31',
          workday: [...twoBands],
          weekend: [...twoBands],
          holiday: [...twoBands],
        },
      ],
    });
    const created = await admin.post('/api/tariffs', { ...exampleTariff(), name: '两段电价', version });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const tariffId = created.body.data.tariff.id;
    const erpConfig = {
      columns: [
        { field: 'identifier', header: 'Meter' },
        { field: 'period', header: 'Period' },
        { field: 'consumption', header: 'kWh' },
        { field: 'price', header: 'Price' },
        { field: 'cost', header: 'Amount' },
        { field: 'costBasis', header: 'Basis' },
      ],
      price: 0.5,
      currency: 'CNY',
      sheetName: 'Import',
      codes: {},
      tariffId: null,
      tariffs: { M1: tariffId },
    };
    const saveErp = async (value: object) => {
      const [row] = (await admin.get('/api/sysconfigs?identifier=erpConfig')).body.data.list;
      const body = { identifier: 'erpConfig', name: 'ERP', value: JSON.stringify(value) };
      const saved = row
        ? await admin.put(`/api/sysconfigs/${row.id}`, body)
        : await admin.post('/api/sysconfigs', body);
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    };
    await saveErp(erpConfig);
    const res = await file(
      '/api/statistics/report/erp/xlsx',
      {
        resourceType: 'thing',
        resourceIds: [m1.id, m2.id],
        metricIdentifier: 'EP',
        period: 'month',
        startTime: NOV20,
      },
      'en',
    );
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['x-export-rows']).toBe(String(1 + 2 * 30));
    const workbook = await workbookOf(res.rawPayload);
    const sheet = workbook.getWorksheet('Import')!;
    const rows = sheet.getSheetValues().slice(2) as unknown[][];
    // M1 on Nov 20: 50 kWh in the valley hours (00–04) and 30 kWh at 23:00 (peak).
    const m1row = rows.find((r) => r[1] === 'M1' && r[2] === '2026-11-20')!;
    expect(m1row.slice(1)).toEqual(['M1', '2026-11-20', 80, 45 / 80, 50 * 0.3 + 30 * 1, 'Tariff']);
    // M2 has no tariff: the flat price, said so.
    const m2row = rows.find((r) => r[1] === 'M2' && r[2] === '2026-11-20')!;
    expect(m2row.slice(1)).toEqual(['M2', '2026-11-20', 7, 0.5, 3.5, 'Flat price']);
    // A period without consumption has no cost and no basis.
    const empty = rows.find((r) => r[1] === 'M1' && r[2] === '2026-11-05')!;
    expect(empty.slice(1, 3)).toEqual(['M1', '2026-11-05']);
    expect(empty[3] ?? null).toBeNull();
    const notes = workbook.getWorksheet('About')!;
    expect(notes.getCell('A1').value).toBe('Tariff');
    expect(notes.getCell('B1').value).toContain('两段电价');
    expect(notes.getCell('B2').value).toBe('Energy no tariff covers is priced at the flat price of 0.5 CNY');

    // An unknown tariff is refused before the file starts: a JSON error, not a broken download.
    await saveErp({ ...erpConfig, tariffs: {}, tariffId: 9999 });
    const missing = await file('/api/statistics/report/erp/xlsx', {
      resourceType: 'thing',
      resourceIds: [m1.id],
      metricIdentifier: 'EP',
      period: 'month',
      startTime: NOV20,
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBeDefined();
  });
});
