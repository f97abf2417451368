import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, dialects, login, type TestApp } from '../../../test/helpers.ts';
import { type Api, apiAs, seedDevices } from './testing.ts';

/** A multipart/form-data body with one file field, as a browser sends it. */
function multipart(filename: string, content: Buffer | string, field = 'file') {
  const boundary = '----kilowatch-test-boundary';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8'),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

async function xlsx(rows: (string | number)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('things');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** The labels the console's devices screen shows for a thing's fields, in one language. */
const screenLabels = (lang: 'zh' | 'en' | 'es') => {
  const file = new URL(`../../../../web/src/features/devices/locales/${lang}.json`, import.meta.url);
  const { devices } = JSON.parse(readFileSync(file, 'utf8'));
  return {
    identifier: devices.thing.fields.identifier as string,
    name: devices.thing.fields.name as string,
    model: devices.thing.fields.model as string,
    description: devices.thing.fields.description as string,
    region: devices.video.fields.region as string,
    token: devices.token.action as string,
  };
};

/** Things in the order they were made (the list answers them in natural order of names). */
// biome-ignore lint/suspicious/noExplicitAny: the list is the API's JSON, read field by field
const byId = (list: any[]): any[] => [...list].sort((a, b) => a.id - b.id);

describe.each(dialects())('thing import on %s', (dialect) => {
  let t: TestApp;
  let api: Api;
  let token: string;
  beforeEach(async () => {
    t = await buildTestApp(dialect);
    token = (await login(t.app)).token;
    api = apiAs(() => t.app, token);
  });
  afterEach(async () => {
    await t.close();
  });

  const upload = async (filename: string, content: Buffer | string, headers: Record<string, string> = {}) => {
    const { body, contentType } = multipart(filename, content);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/thing/things/import',
      headers: { ...bearer(token), 'content-type': contentType, ...headers },
      payload: body,
    });
    return { status: res.statusCode, body: res.json() };
  };
  const count = async () => (await api.get('/api/thing/things')).body.data.total as number;

  it('refuses an upload cut off before its end with a 400, without waiting for bytes that never come', async () => {
    const { body, contentType } = multipart('t.csv', 'identifier,name,model\nT-1,one,A型\n');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/thing/things/import',
      headers: { ...bearer(token), 'content-type': contentType, 'accept-language': 'en' },
      // The closing boundary never arrives: the multipart parser fails the file stream.
      payload: body.subarray(0, body.length - 12),
      signal: AbortSignal.timeout(10_000),
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().code).toBe('BAD_REQUEST');
    expect(await count()).toBe(0);
  });

  it('imports an xlsx file', async () => {
    const { model } = await seedDevices(api);
    const file = await xlsx([
      ['identifier', 'name', 'model', 'description'],
      ['X-1', '一号机', 'A型', '车间 1'],
      [],
      ['X-2', 2024, 'a型', ''],
    ]);
    const res = await upload('devices.xlsx', file);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ data: { created: 2 } });
    // In the file's order (the list itself is in natural order of names).
    const list = byId((await api.get('/api/thing/things')).body.data.list);
    expect(list).toMatchObject([
      { identifier: 'X-1', name: '一号机', modelId: model.id, description: '车间 1' },
      { identifier: 'X-2', name: '2024', modelId: model.id, description: '' },
    ]);
    // Imported things get their own device tokens.
    const a = (await api.get(`/api/thing/things/${list[0].id}/token`)).body.data.accessToken;
    const b = (await api.get(`/api/thing/things/${list[1].id}/token`)).body.data.accessToken;
    expect(a).not.toBe(b);
  });

  it('imports a csv file with columns in any order, labels as headers, quotes and a BOM', async () => {
    await seedDevices(api);
    const csv = '\uFEFF型号,设备标识,设备名称\r\nA型,C-1,"Pump, north"\r\n\r\nA型,C-2,007\r\n';
    const res = await upload('devices.CSV', csv);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.created).toBe(2);
    const list = byId((await api.get('/api/thing/things')).body.data.list);
    expect(list.map((x: { name: string }) => x.name)).toEqual(['Pump, north', '007']);
  });

  it('resolves an ambiguous model name only as Category/Model', async () => {
    const { model } = await seedDevices(api);
    const water = (await api.post('/api/thing/categories', { name: '水表' })).body.data;
    const waterA = (await api.post('/api/thing/models', { categoryId: water.id, name: 'A型' })).body.data;
    const ambiguous = await upload('a.csv', 'identifier,name,model\nW1,w,A型\n');
    expect(ambiguous.status).toBe(422);
    expect(ambiguous.body.errors).toEqual([
      { row: 2, column: 'model', message: '型号“A型”在多个类别中都有（电表, 水表），请写作“类别/型号”' },
    ]);
    const ok = await upload('a.csv', 'identifier,name,model\nW1,w,水表/A型\nE1,e,电表 / a型\n');
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const list = byId((await api.get('/api/thing/things')).body.data.list);
    expect(list.map((x: { modelId: number }) => x.modelId)).toEqual([waterA.id, model.id]);
  });

  it('rejects a file with bad rows as a whole, listing every row at fault', async () => {
    await seedDevices(api, 1); // M1 exists
    const file = await xlsx([
      ['identifier', 'name', 'model', 'description'],
      ['OK-1', 'fine', 'A型', ''],
      ['OK-2', 'unknown model', 'Z型', ''],
      ['OK-1', 'duplicate in file', 'A型', ''],
      ['M1', 'exists already', 'A型', ''],
      ['9bad', '', 'A型', ''],
    ]);
    const res = await upload('bad.xlsx', file);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      code: 'UNPROCESSABLE',
      message: '导入失败：5 处数据有误，未导入任何数据',
      errors: [
        { row: 3, column: 'model', message: '型号“Z型”不存在' },
        { row: 4, column: 'identifier', message: '标识“OK-1”与第 2 行重复' },
        { row: 5, column: 'identifier', message: '标识“M1”已存在' },
        { row: 6, column: 'name', message: '不能为空' },
        { row: 6, column: 'identifier', message: expect.stringContaining('格式不正确') },
      ],
    });
    expect(await count()).toBe(1);

    const en = await upload('bad.csv', 'identifier,name,model\nA1,a,Nope\nA1,b,A型\n', {
      'accept-language': 'en',
    });
    expect(en.status).toBe(422);
    expect(en.body.message).toBe('Import failed: 2 error(s) found, nothing was imported');
    expect(en.body.errors).toEqual([
      { row: 2, column: 'model', message: 'Model "Nope" does not exist' },
      { row: 3, column: 'identifier', message: 'Identifier "A1" repeats row 2' },
    ]);
    expect(await count()).toBe(1);
  });

  it('refuses files that are not an import: no header, wrong type, unreadable, empty, no file', async () => {
    await seedDevices(api);
    const noHeader = await upload('x.csv', 'X1,x,A型\n');
    expect(noHeader.status).toBe(422);
    expect(noHeader.body.errors).toEqual([
      { row: 1, column: '设备标识', message: '缺少列 设备标识（第 1 行应为表头）' },
      { row: 1, column: '设备名称', message: '缺少列 设备名称（第 1 行应为表头）' },
      { row: 1, column: '型号', message: '缺少列 型号（第 1 行应为表头）' },
    ]);
    const wrongType = await upload('x.txt', 'identifier,name,model\n');
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.message).toBe('只支持 .xlsx 或 .csv 文件');
    expect((await upload('x.xlsx', 'not a zip')).status).toBe(400);
    const empty = await upload('x.csv', 'identifier,name,model\n\n');
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('文件中没有数据行');
    const json = await api.post('/api/thing/things/import', { file: 'x' });
    expect(json.status).toBe(400);
    const { body, contentType } = multipart('x.csv', 'identifier,name,model\n', 'other');
    const wrongField = await t.app.inject({
      method: 'POST',
      url: '/api/thing/things/import',
      headers: { ...bearer(token), 'content-type': contentType },
      payload: body,
    });
    expect(wrongField.statusCode).toBe(400);
    const big = await upload('big.csv', `identifier,name,model\n${'x'.repeat(5 * 1024 * 1024 + 10)}`);
    expect(big.status).toBe(413);
    expect(big.body.message).toBe('文件不能超过 5 MB');
    expect(await count()).toBe(0);
  });

  it('serves templates that re-import once filled in', async () => {
    await seedDevices(api);
    const xlsxRes = await t.app.inject({
      method: 'GET',
      url: '/api/thing/things/import-template?format=xlsx',
      headers: bearer(token),
    });
    expect(xlsxRes.statusCode).toBe(200);
    expect(xlsxRes.headers['content-type']).toContain('spreadsheetml');
    expect(xlsxRes.headers['content-disposition']).toBe('attachment; filename="things-import-template.xlsx"');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsxRes.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      '设备标识',
      '设备名称',
      '型号',
      '描述',
      '区域',
      '接入令牌',
    ]);
    expect(workbook.getWorksheet('help')!.getColumn(1).values).toEqual([
      undefined,
      'column',
      'identifier',
      'name',
      'model',
      'description',
      'region',
      'token',
    ]);
    expect(workbook.getWorksheet('models')!.getRow(2).values).toEqual([undefined, '电表', 'A型', '电表/A型']);
    sheet.addRow(['T-1', '模板设备', '电表/A型', 'from template']);
    const filled = Buffer.from(await workbook.xlsx.writeBuffer());
    const res = await upload('things-import-template.xlsx', filled);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.created).toBe(1);

    const csvRes = await t.app.inject({
      method: 'GET',
      url: '/api/thing/things/import-template?format=csv',
      headers: bearer(token),
    });
    expect(csvRes.statusCode).toBe(200);
    expect(csvRes.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csvRes.headers['content-disposition']).toBe('attachment; filename="things-import-template.csv"');
    expect(csvRes.body).toBe('\uFEFF设备标识,设备名称,型号,描述,区域,接入令牌');
    const enCsv = await t.app.inject({
      method: 'GET',
      url: '/api/thing/things/import-template?format=csv',
      headers: { ...bearer(token), 'accept-language': 'en' },
    });
    expect(enCsv.body).toBe('\uFEFFIdentifier,Name,Model,Description,Region,Access token');
    const csvFilled = await upload('t.csv', `${csvRes.body}\nT-2,csv 设备,A型,,,\n`);
    expect(csvFilled.status, JSON.stringify(csvFilled.body)).toBe(200);
    expect(await count()).toBe(2);

    expect((await api.get('/api/thing/things/import-template?format=pdf')).status).toBe(400);
    expect((await api.get('/api/thing/things/import-template')).status).toBe(200);
  });

  it.each(['zh', 'en', 'es'] as const)(
    "accepts the devices screen's %s labels as headers, in xlsx and CSV",
    async (lang) => {
      const { model } = await seedDevices(api);
      const labels = screenLabels(lang);
      const header = [
        labels.model,
        labels.identifier,
        labels.name,
        labels.description,
        labels.region,
        labels.token,
      ];
      const file = await xlsx([header, ['A型', `L-${lang}-1`, 'one', 'first', '', '']]);
      const res = await upload(`${lang}.xlsx`, file);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const csv = `${header.join(';')}\nA型;L-${lang}-2;two;second;;\n`;
      expect((await upload(`${lang}.csv`, csv)).status).toBe(200);
      const list = (await api.get('/api/thing/things')).body.data.list;
      expect(list.map((x: { identifier: string; modelId: number }) => [x.identifier, x.modelId])).toEqual([
        [`L-${lang}-1`, model.id],
        [`L-${lang}-2`, model.id],
      ]);
      // A problem names the column by the header the file gave it.
      const bad = await upload(`${lang}-bad.csv`, `${header.join(',')}\nA型,9bad,x,,,\n`);
      expect(bad.status).toBe(422);
      expect(bad.body.errors).toMatchObject([{ row: 2, column: labels.identifier }]);
    },
  );

  it('binds imported things to a region by name or path and keeps a given access token', async () => {
    await seedDevices(api);
    const plant = (await api.post('/api/regions', { name: '一车间' })).body.data.id as number;
    const line = (await api.post('/api/regions', { name: '一号线', parentId: plant })).body.data.id as number;
    const other = (await api.post('/api/regions', { name: '二车间' })).body.data.id as number;
    // A second 一号线 under 二车间: the bare name is ambiguous from now on.
    await api.post('/api/regions', { name: '一号线', parentId: other });
    const token1 = 'tb-device-token-0001';
    const file = await xlsx([
      ['设备标识', '设备名称', '设备型号', '区域', '接入令牌'],
      ['R-1', 'by path', 'A型', '一车间 / 一号线', token1],
      ['R-2', 'by name', 'A型', '二车间', ''],
      ['R-3', 'no region', 'A型', '', ''],
    ]);
    const res = await upload('regions.xlsx', file);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const list = (await api.get('/api/thing/things')).body.data.list as { id: number; identifier: string }[];
    const id = (identifier: string) => list.find((x) => x.identifier === identifier)!.id;
    expect((await api.get(`/api/thing/things/${id('R-1')}/token`)).body.data.accessToken).toBe(token1);
    expect((await api.get(`/api/thing/things/${id('R-2')}/token`)).body.data.accessToken).toMatch(/^.{43}$/);
    const bound = async (region: number) =>
      (await api.get(`/api/regions/${region}/bindings`)).body.data.map(
        (b: { thing: { id: number } }) => b.thing.id,
      );
    expect(await bound(line)).toEqual([id('R-1')]);
    expect(await bound(other)).toEqual([id('R-2')]);
    // The device authenticates with the token it was imported with.
    const posted = await t.app.inject({
      method: 'POST',
      url: '/api/telemetry',
      headers: { 'x-device-token': token1 },
      payload: { values: { P: 1 } },
    });
    expect(posted.statusCode, posted.body).toBe(200);

    const refused = await upload(
      'bad-regions.csv',
      [
        'identifier,name,model,Region,Access token',
        'S-1,a,A型,一号线,short',
        `S-2,b,A型,三车间,${token1}`,
        'S-3,c,A型,一车间/一号线,another-token-0002',
        'S-4,d,A型,,another-token-0002',
      ].join('\n'),
      { 'accept-language': 'en' },
    );
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      {
        row: 2,
        column: 'Access token',
        message: 'Malformed token: 16–128 characters, letters, digits and - _ . ~ only',
      },
      {
        row: 2,
        column: 'Region',
        message: 'Several regions are named "一号线" (一车间/一号线, 二车间/一号线); write the full path',
      },
      { row: 3, column: 'Access token', message: 'Another device already uses this token' },
      { row: 3, column: 'Region', message: 'Region "三车间" does not exist' },
      { row: 5, column: 'Access token', message: 'The token repeats row 4' },
    ]);
    expect(await count()).toBe(3);
  });
});
