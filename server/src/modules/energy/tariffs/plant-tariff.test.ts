import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, login, type TestApp } from '../../../../test/helpers.ts';
import { type Client, client, editorWith, roleGranting } from '../../system/testing.ts';
import { exampleTariff } from './testing.ts';

describe.each(dialects())("the plant's tariff and the ERP form on %s", (dialect) => {
  let t: TestApp;
  let admin: Client;
  beforeEach(async () => {
    t = await buildTestApp(dialect);
    admin = client(() => t.app, (await login(t.app)).token);
  });
  afterEach(async () => {
    await t.close();
  });

  const newTariff = async (name: string): Promise<number> => {
    const res = await admin.post('/api/tariffs', { ...exampleTariff(), name });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.tariff.id;
  };

  it("is chosen from the tariff screen's grant, and the overview prices with it", async () => {
    const id = await newTariff('大工业用电');
    expect((await admin.get('/api/tariffs/plant')).body.data).toEqual({ tariffId: null });
    expect((await admin.get('/api/dashboard/overview')).body.data.tariff).toBeNull();

    // Someone who may edit tariffs but not the system settings makes it the plant's.
    const role = await roleGranting(admin, 'tariffs', ['/analysis/tariff']);
    const editor = await editorWith(() => t.app, admin, 'pricing', [role]);
    const set = await editor.api.put('/api/tariffs/plant', { tariffId: id });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.data).toEqual({ tariffId: id });
    expect((await admin.get('/api/dashboard/overview')).body.data.tariff).toEqual({
      id,
      name: '大工业用电',
      source: { kind: 'plant', region: null },
    });

    // Kept in erpConfig, whose other fields are the defaults the export used before.
    const erp = (await admin.get('/api/sysconfigs/erp')).body.data;
    expect(erp).toMatchObject({ tariffId: id, sheetName: 'ERP', currency: 'CNY' });
    expect(erp.columns.length).toBeGreaterThan(0);

    expect((await editor.api.put('/api/tariffs/plant', { tariffId: 99999 })).status).toBe(404);
    const viewer = await editorWith(() => t.app, admin, 'viewer');
    expect((await viewer.api.put('/api/tariffs/plant', { tariffId: id })).status).toBe(403);
    expect((await viewer.api.get('/api/tariffs/plant')).body.data).toEqual({ tariffId: id });

    const cleared = await editor.api.put('/api/tariffs/plant', { tariffId: null });
    expect(cleared.body.data).toEqual({ tariffId: null });
    expect((await admin.get('/api/dashboard/overview')).body.data.tariff).toBeNull();
  });

  it('saves the ERP form whole, checked: a bad field is a 400, an unknown tariff a 404', async () => {
    const id = await newTariff('一般工商业');
    const config = {
      columns: [
        { field: 'code', header: 'Cost centre' },
        { field: 'cost', header: 'Amount' },
      ],
      price: 0.8,
      currency: 'EUR',
      sheetName: 'Energy',
      codes: { 'TR-01': 'CC-100' },
      tariffId: id,
      tariffs: { 'AC-01': id },
    };
    const saved = await admin.put('/api/sysconfigs/erp', config);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data).toEqual(config);
    expect((await admin.get('/api/sysconfigs/erp')).body.data).toEqual(config);
    // One erpConfig row, created by the form, and a second save changes it.
    const rows = (await admin.get('/api/sysconfigs?identifier=erpConfig')).body.data.list;
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0].value)).toEqual(config);
    expect((await admin.put('/api/sysconfigs/erp', { ...config, price: 1 })).body.data.price).toBe(1);
    expect((await admin.get('/api/sysconfigs?identifier=erpConfig')).body.data.list).toHaveLength(1);

    expect((await admin.put('/api/sysconfigs/erp', { ...config, sheetName: '' })).status).toBe(400);
    expect((await admin.put('/api/sysconfigs/erp', { ...config, columns: [] })).status).toBe(400);
    const unknown = await admin.put('/api/sysconfigs/erp', { ...config, tariffs: { 'AC-01': 99999 } });
    expect(unknown.status).toBe(404);
    expect((await admin.get('/api/sysconfigs/erp')).body.data.price).toBe(1);

    // Choosing the plant's tariff keeps the rest of the form.
    await admin.put('/api/tariffs/plant', { tariffId: null });
    expect((await admin.get('/api/sysconfigs/erp')).body.data).toEqual({
      ...config,
      price: 1,
      tariffId: null,
    });
  });
});
