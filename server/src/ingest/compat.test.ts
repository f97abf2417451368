import { gzipSync } from 'node:zlib';
import { HttpError, InfluxDB, Point, setLogger } from '@influxdata/influxdb-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, login, type TestApp } from '../../test/helpers.ts';
import { type Api, apiAs } from '../modules/things/testing.ts';
import { type Plant, seedPlant } from './testing.ts';

/**
 * Real clients over real HTTP: the official InfluxDB client library written to the way Telegraf
 * writes (gzip, batches), InfluxDB 1.x writes as Telegraf's outputs.influxdb sends them, and
 * ThingsBoard devices' plain HTTP.
 */
describe.each(dialects())('InfluxDB and ThingsBoard clients on %s', (dialect) => {
  let t: TestApp;
  let api: Api;
  let plant: Plant;
  let url: string;
  const logged: string[] = [];
  const latest = async (thingId: number) =>
    Object.fromEntries(
      (
        (await api.get(`/api/query/realtime?resourceId=${thingId}`)).body.data as {
          operation: string;
          value: unknown;
          ts: number | null;
        }[]
      ).map((s) => [s.operation, [s.value, s.ts]]),
    );

  beforeAll(async () => {
    // The client library logs failed writes to the console; keep them to look at.
    setLogger({ error: (message) => logged.push(message), warn: (message) => logged.push(message) });
    t = await buildTestApp(dialect);
    api = apiAs(() => t.app, (await login(t.app)).token);
    plant = await seedPlant(api, 4);
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t.close();
  });

  const telegrafLike = (token: string) =>
    new InfluxDB({ url, token }).getWriteApi('plant', 'kilowatch', 'ns', {
      batchSize: 1000,
      // Telegraf compresses every body; the library does above this many bytes.
      gzipThreshold: 0,
      flushInterval: 0,
      maxRetries: 0,
    });

  describe('@influxdata/influxdb-client (v2 write API)', () => {
    it('writes gzip-compressed batches of points; a flush resolves once durable', async () => {
      const m1 = plant.things[0]!;
      const now = t.clock.now();
      const write = telegrafLike(m1.token);
      write.useDefaultTags({ host: 'gw01' });
      for (let i = 0; i < 120; i++) {
        write.writePoint(
          new Point('modbus')
            .tag('name', 'meter1')
            .floatField('P', 10 + i)
            .floatField('EP', 1000 + i)
            .timestamp(new Date(now - (120 - i) * 1000)),
        );
      }
      write.writeRecord(`status FW="v2.1",RUN=1i,ON=true ${BigInt(now) * 1_000_000n}`);
      await write.flush();
      expect(await latest(m1.id)).toMatchObject({
        P: [129, now - 1000],
        EP: [1119, now - 1000],
        FW: ['v2.1', now],
        RUN: [1, now],
        ON: [1, now],
      });
      await write.close();
    });

    it('gets 401 with an English reason for an unknown token, 400 partial write for bad values', async () => {
      const wrong = telegrafLike('no-such-token');
      wrong.writeRecord('m P=1');
      const denied = await wrong.flush().then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(denied).toBeInstanceOf(HttpError);
      expect((denied as HttpError).statusCode).toBe(401);
      expect((denied as HttpError).message).toMatch(/^Invalid device token/);
      await wrong.close().catch(() => {});

      const m2 = plant.things[1]!;
      const partial = telegrafLike(m2.token);
      partial.writeRecords(['m P=1,NOPE=2', 'm P=']);
      const refused = await partial.flush().then(
        () => undefined,
        (error: unknown) => error,
      );
      expect((refused as HttpError).statusCode).toBe(400);
      expect((refused as HttpError).message).toBe(
        'partial write: line 1: unknown metric "NOPE"; line 2: field "P" has no value',
      );
      expect((await latest(m2.id)).P?.[0]).toBe(1);
      await partial.close().catch(() => {});
    });

    it('takes `Token user:password` as InfluxDB 1.8 does (Node-RED "1.8-flux" nodes)', async () => {
      const m4 = plant.things[3]!;
      const write = new InfluxDB({ url, token: `nodered:${m4.token}` }).getWriteApi(
        '',
        'telegraf/autogen',
        'ms',
        {
          flushInterval: 0,
          maxRetries: 0,
        },
      );
      write.writeRecord(`meter EP=77 ${t.clock.now() - 3000}`);
      await write.flush();
      expect((await latest(m4.id)).EP).toEqual([77, t.clock.now() - 3000]);
      await write.close();
    });

    it('pings: 204 with the version headers clients read, HEAD too; /health in InfluxDB 2 shape', async () => {
      const transport = new InfluxDB({ url }).transport;
      let headers: Record<string, unknown> = {};
      let status: number | undefined;
      await transport.request('/ping', null, { method: 'GET' }, (h, s) => {
        headers = h;
        status = s;
      });
      expect(status).toBe(204);
      expect(headers['x-influxdb-version']).toBe('2.7.0');
      expect(headers['x-influxdb-build']).toBe('OSS');
      const head = await fetch(`${url}/ping`, { method: 'HEAD' });
      expect(head.status).toBe(204);
      expect(head.headers.get('x-influxdb-version')).toBe('2.7.0');
      expect(await (await fetch(`${url}/ping?verbose=true`)).json()).toEqual({ version: '2.7.0' });

      const health = await fetch(`${url}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({
        name: 'kilowatch',
        message: expect.stringMatching(/^ready for writes/),
        status: 'pass',
        checks: [{ name: 'database', status: 'pass' }],
        version: '2.7.0',
        commit: expect.any(String),
      });
    });
  });

  describe('InfluxDB 1.x write API (Telegraf outputs.influxdb)', () => {
    const v1 = (query: string, body: string | Buffer, headers: Record<string, string> = {}) =>
      fetch(`${url}/write${query}`, { method: 'POST', body, headers });
    const basic = (user: string, password: string) =>
      `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

    it('takes the token as basic-auth password, ?p= or Token, gzip bodies and v1 precisions', async () => {
      const m3 = plant.things[2]!;
      const now = t.clock.now();
      const gz = await v1(
        '?db=telegraf',
        gzipSync(`modbus,host=gw P=31.5 ${BigInt(now - 9000) * 1_000_000n}`),
        {
          authorization: basic('telegraf', m3.token),
          'content-encoding': 'gzip',
          'content-type': 'text/plain; charset=utf-8',
          'user-agent': 'Telegraf/1.32.0 Go/1.23.0',
        },
      );
      expect(gz.status, await gz.clone().text()).toBe(204);
      expect((await latest(m3.id)).P).toEqual([31.5, now - 9000]);
      const byQuery = await v1(
        `?db=x&u=any&p=${m3.token}&precision=s`,
        `m P=32 ${Math.floor((now - 8000) / 1000)}`,
      );
      expect(byQuery.status).toBe(204);
      expect((await latest(m3.id)).P).toEqual([32, now - 8000]);
      const byToken = await v1('?precision=n', `m P=33 ${BigInt(now - 7000) * 1_000_000n}`, {
        authorization: `Token ${m3.token}`,
      });
      expect(byToken.status).toBe(204);
      expect((await latest(m3.id)).P).toEqual([33, now - 7000]);
      const minutes = await v1(`?precision=m&p=${m3.token}`, `m EP=5 ${Math.floor(now / 60_000) - 1}`);
      expect(minutes.status).toBe(204);
      expect((await latest(m3.id)).EP).toEqual([5, (Math.floor(now / 60_000) - 1) * 60_000]);
    });

    it("answers errors with the 'error' key Telegraf reads, in English", async () => {
      const m3 = plant.things[2]!;
      const denied = await v1('?db=telegraf', 'm P=1', { authorization: basic('telegraf', 'wrong') });
      expect(denied.status).toBe(401);
      const body = (await denied.json()) as { message: string; error: string };
      expect(body).toMatchObject({ code: 'UNAUTHORIZED', error: body.message });
      expect(body.error).toMatch(/^Invalid device token/);
      const unparsable = await v1(`?p=${m3.token}`, 'm P=abc');
      expect(unparsable.status).toBe(400);
      expect(await unparsable.json()).toEqual({
        code: 'BAD_REQUEST',
        message: 'unable to parse: line 1: field "P": invalid value "abc"',
        error: 'unable to parse: line 1: field "P": invalid value "abc"',
      });
      const badPrecision = await v1(`?p=${m3.token}&precision=x`, 'm P=1');
      expect(badPrecision.status).toBe(400);
      expect(((await badPrecision.json()) as { error?: string }).error).toEqual(expect.any(String));
    });

    it('answers the CREATE DATABASE Telegraf sends at start, and nothing else', async () => {
      const m3 = plant.things[2]!;
      const query = (q: string, authorization = basic('telegraf', m3.token)) =>
        fetch(`${url}/query`, {
          method: 'POST',
          body: new URLSearchParams({ q }).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded', authorization },
        });
      const created = await query('CREATE DATABASE "telegraf"');
      expect(created.status).toBe(200);
      expect(await created.json()).toEqual({ results: [{ statement_id: 0 }] });
      expect((await query('SELECT * FROM cpu')).status).toBe(400);
      expect((await query('CREATE DATABASE "x"', basic('u', 'wrong'))).status).toBe(401);
    });
  });

  describe('ThingsBoard devices over plain HTTP', () => {
    it('posts flat telemetry to /api/v1/{token}/telemetry as a ThingsBoard device does', async () => {
      const m4 = plant.things[3]!;
      const res = await fetch(`${url}/api/v1/${m4.token}/telemetry`, {
        method: 'POST',
        body: JSON.stringify({ P: 13.5, RUN: 1 }),
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ data: { accepted: 2, rejected: [] } });
      expect(await latest(m4.id)).toMatchObject({ P: [13.5, t.clock.now()], RUN: [1, t.clock.now()] });
      const unknown = await fetch(`${url}/api/v1/nope/telemetry`, {
        method: 'POST',
        body: '{"P":1}',
        headers: { 'content-type': 'application/json' },
      });
      expect(unknown.status).toBe(401);
      expect(((await unknown.json()) as { message: string }).message).toMatch(
        /^Unknown device access token in the URL/,
      );
    });
  });
});
