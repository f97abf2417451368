import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, type TestApp } from '../../../test/helpers.ts';
import * as tariffDemandWindow from './2026-11-27-0500-tariff-demand-window.ts';
import * as alarmAnnunciations from './2026-11-27-0510-alarm-annunciations.ts';

/** The two migrations of issue 19 over data written before them, on both dialects. */
describe.each(dialects())('upgrading stored tariffs and alarm history on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(dialect);
  });
  afterAll(() => t?.close());
  const db = () => t.app.db.db;
  const at = '2026-11-20T08:00:00.000Z';

  it('writes `fixed` into every stored demand charge, and nothing into the others', async () => {
    const tariff = await db()
      .insertInto('tariffs')
      .values({
        name: '旧方案',
        description: '',
        holidays: '[]',
        workdays: '[]',
        weekend_days: '[6,7]',
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const body = (demand: object) =>
      JSON.stringify({ note: '', prices: { flat: 0.6 }, seasons: [], demand, powerFactorTarget: null });
    const rows = [
      { valid_from: '2026-01-01', body: body({ kind: 'demand', pricePerKw: 40 }) },
      { valid_from: '2026-02-01', body: body({ kind: 'capacity', pricePerKva: 25, capacityKva: 400 }) },
      { valid_from: '2026-03-01', body: body({ kind: 'demand', pricePerKw: 38, window: 'sliding' }) },
    ];
    await db()
      .insertInto('tariff_versions')
      .values(rows.map((r) => ({ ...r, tariff_id: tariff.id, created_at: at })))
      .execute();
    await tariffDemandWindow.up(db());
    const demands = async () =>
      (
        await db()
          .selectFrom('tariff_versions')
          .select('body')
          .where('tariff_id', '=', tariff.id)
          .orderBy('valid_from')
          .execute()
      ).map((r) => JSON.parse(r.body).demand);
    expect(await demands()).toEqual([
      { kind: 'demand', pricePerKw: 40, window: 'fixed' },
      { kind: 'capacity', pricePerKva: 25, capacityKva: 400 },
      { kind: 'demand', pricePerKw: 38, window: 'sliding' },
    ]);
    // Run again, it changes nothing; down takes the written-out windows away again.
    await tariffDemandWindow.up(db());
    expect((await demands())[0]).toEqual({ kind: 'demand', pricePerKw: 40, window: 'fixed' });
    await tariffDemandWindow.down(db());
    expect((await demands()).map((d) => d.window)).toEqual([undefined, undefined, undefined]);
  });

  it('gives each alarm of the old history one annunciation, at its raise', async () => {
    await alarmAnnunciations.down(db());
    const history = (alarmAt: string, suppressed: number, occurrences: number) => ({
      monitor_id: 1,
      rule_id: 11,
      rule_name: '压力低',
      template_name: '',
      thing_id: 2,
      thing_name: '空压机2',
      resource_type: 'thing',
      resource_id: 2,
      resource_name: '空压机2',
      severity: 'major',
      message: '',
      value: '1',
      alarm_at: alarmAt,
      returned_at: null,
      active: 0,
      acknowledged: 1,
      closed: 1,
      shelved_until: null,
      suppressed,
      chattering: occurrences > 5 ? 1 : 0,
      occurrences,
      updated_at: alarmAt,
    });
    const ids = [];
    for (const row of [history('2026-11-20T01:00:00.000Z', 0, 8), history('2026-11-20T02:00:00.000Z', 1, 1)])
      ids.push(
        (await db().insertInto('alarm_history').values(row).returning('id').executeTakeFirstOrThrow()).id,
      );
    await alarmAnnunciations.up(db(), dialect);
    const rows = await db()
      .selectFrom('alarm_annunciations')
      .select(['history_id', 'rule_id', 'thing_id', 'at', 'suppressed'])
      .orderBy('at')
      .execute();
    expect(rows).toEqual([
      { history_id: ids[0], rule_id: 11, thing_id: 2, at: '2026-11-20T01:00:00.000Z', suppressed: 0 },
      { history_id: ids[1], rule_id: 11, thing_id: 2, at: '2026-11-20T02:00:00.000Z', suppressed: 1 },
    ]);
  });
});
