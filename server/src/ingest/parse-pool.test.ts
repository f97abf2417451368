import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, login } from '../../test/helpers.ts';
import { apiAs } from '../modules/things/testing.ts';
import type { AbilityRule } from './check.ts';
import { type ParseJob, parseBody } from './parse.ts';
import { ParsePool, WORKER_MIN_BYTES } from './parse-pool.ts';
import { seedPlant } from './testing.ts';

const T0 = Date.UTC(2026, 10, 1);
const rules: [string, AbilityRule][] = [
  ['P', { identifier: 'P', dataType: 'number', enumOptions: [] }],
  ['run', { identifier: 'run', dataType: 'boolean', enumOptions: [] }],
  ['note', { identifier: 'note', dataType: 'string', enumOptions: [] }],
];
const job = (body: string, format: ParseJob['format']): ParseJob => ({
  body: Buffer.from(body),
  format,
  abilities: rules,
  thingId: 7,
  arrival: T0 + 60_000,
  oldest: T0 - 86_400_000,
  maxBatch: 50_000,
});

describe('the parse pool', () => {
  const pool = new ParsePool(2);
  afterAll(() => pool.close());

  it('answers in a worker what parseBody answers on the main thread, and leaves the caller its body', async () => {
    const lines = Array.from(
      { length: 2000 },
      (_, i) => `m P=${i}.5,run=${i % 2 === 0 ? 't' : 'f'},note="n${i}",Q=1 ${T0 + i}`,
    );
    lines.splice(5, 0, 'not a line');
    const line = job(lines.join('\n'), { kind: 'line', precision: 'ms' });
    const json = job(
      JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ ts: T0 + i, values: { P: i, run: 'x' } }))),
      { kind: 'json' },
    );
    for (const j of [line, json]) {
      expect(j.body.byteLength).toBeGreaterThan(WORKER_MIN_BYTES);
      const copy = Buffer.from(j.body);
      const [inWorker, inline] = await Promise.all([pool.parse(j), Promise.resolve(parseBody(j))]);
      expect(inWorker).toEqual(inline);
      expect(Buffer.from(j.body).equals(copy)).toBe(true);
    }
    const parsed = await pool.parse(line);
    if (parsed.kind !== 'values' || !parsed.checked) throw new Error('expected values');
    const n = parsed.checked.numbers;
    expect(n.ts).toBeInstanceOf(Float64Array);
    expect([n.metrics, n.ts.length, n.values[0], n.values[1]]).toEqual([['P', 'run'], 4000, 0.5, 1]);
    expect(parsed.checked.texts).toHaveLength(2000);
    expect(parsed.checked.rejected.filter((r) => r.metric === 'Q')).toHaveLength(2000);
    expect(parsed.lineErrors.map((e) => e.line)).toEqual([6]);
  });

  it('answers an undecodable body and a body over the batch limit without values', async () => {
    const big = 'x'.repeat(WORKER_MIN_BYTES);
    expect(await pool.parse(job(`{${big}`, { kind: 'json' }))).toMatchObject({
      kind: 'undecodable',
      error: 'invalid',
    });
    const many = job(
      JSON.stringify({ values: Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`k${i}`, i])) }),
      {
        kind: 'json',
      },
    );
    expect(await pool.parse({ ...many, maxBatch: 100 })).toMatchObject({
      kind: 'values',
      total: 3000,
      checked: null,
    });
  });
});

describe('the parse pool in the app', () => {
  it('ends its worker threads when the app closes (graceful shutdown)', async () => {
    const pools: ParsePool[] = [];
    const parse = ParsePool.prototype.parse;
    const spy = vi.spyOn(ParsePool.prototype, 'parse').mockImplementation(function (this: ParsePool, j) {
      pools.push(this);
      return parse.call(this, j);
    });
    const t = await buildTestApp('sqlite');
    try {
      const api = apiAs(() => t.app, (await login(t.app)).token);
      const m1 = (await seedPlant(api, 1)).things[0]!;
      const now = t.clock.now();
      const lines = Array.from({ length: 1_000 }, (_, i) => `m P=${i} ${now - 1_000_000 + i * 1_000}`);
      const body = lines.join('\n');
      expect(body.length).toBeGreaterThanOrEqual(WORKER_MIN_BYTES);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v2/write?precision=ms',
        payload: body,
        headers: { authorization: `Token ${m1.token}`, 'content-type': 'text/plain' },
      });
      expect(res.statusCode, res.body).toBe(204);
      expect(pools).toHaveLength(1);
      expect(pools[0]?.threads).toBeGreaterThan(0);
    } finally {
      await t.close();
      spy.mockRestore();
    }
    expect(pools[0]?.threads).toBe(0);
  });
});
