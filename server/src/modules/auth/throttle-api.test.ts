import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { base64, buildTestApp, dialects, encryptPassword, type TestApp } from '../../../test/helpers.ts';
import { createLoginThrottle } from './throttle.ts';

/** A login from a given client address (the socket's, as without TRUST_PROXY). */
async function loginFrom(
  t: TestApp,
  source: string,
  username: string,
  password: string,
  headers: Record<string, string> = {},
) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: source,
    headers,
    payload: { username: base64(username), password: await encryptPassword(t.app, password) },
  });
}

describe.each(dialects())('login throttle on %s', (dialect) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await buildTestApp(dialect);
  });
  afterEach(async () => {
    await t.close();
  });

  it('never refuses the right password from an address that has not failed (admin lock-out)', async () => {
    for (let i = 0; i < 30; i++) await loginFrom(t, '203.0.113.9', 'admin', 'Wrong123');
    const owner = await loginFrom(t, '198.51.100.1', 'admin', 'Admin123');
    expect(owner.statusCode, owner.body).toBe(200);
  });

  it('lets an address that failed for other names still log in to an account it has not failed on, up to 20 failures', async () => {
    for (let i = 0; i < 20; i++) {
      expect((await loginFrom(t, '203.0.113.7', `user${i}`, 'Wrong123')).statusCode).toBe(401);
    }
    expect((await loginFrom(t, '203.0.113.7', 'admin', 'Admin123')).statusCode).toBe(200);
  });

  it('slows one name from one address with growing delays, answering 429 with Retry-After meanwhile', async () => {
    const source = '203.0.113.5';
    // Three free failures, then 1 s, 2 s, 4 s … after each further one.
    for (let i = 0; i < 3; i++)
      expect((await loginFrom(t, source, 'admin', 'Wrong123')).statusCode).toBe(401);
    const expected = [1, 2, 4, 8, 16];
    for (const delay of expected) {
      expect((await loginFrom(t, source, 'admin', 'Wrong123')).statusCode).toBe(401);
      const held = await loginFrom(t, source, 'admin', 'Admin123', { 'accept-language': 'en' });
      expect(held.statusCode).toBe(429);
      expect(held.json()).toEqual({
        code: 'TOO_MANY_ATTEMPTS',
        message: `Too many failed logins, please try again in ${delay} second(s)`,
      });
      expect(Number(held.headers['retry-after'])).toBe(delay);
      t.clock.advance(delay * 1000);
    }
    // Refused attempts did not count: the right password after the wait gets in and clears the count.
    expect((await loginFrom(t, source, 'admin', 'Admin123')).statusCode).toBe(200);
    for (let i = 0; i < 3; i++)
      expect((await loginFrom(t, source, 'admin', 'Wrong123')).statusCode).toBe(401);
    expect((await loginFrom(t, source, 'admin', 'Wrong123')).statusCode).toBe(401);
  });

  it('caps the delay at 15 minutes and forgets a name’s failures 24 hours after the last one', async () => {
    const source = '203.0.113.6';
    for (let i = 0; i < 14; i++) {
      const res = await loginFrom(t, source, 'admin', 'Wrong123');
      expect(res.statusCode).toBe(401);
      t.clock.advance(15 * 60_000);
    }
    t.clock.advance(-15 * 60_000);
    const held = await loginFrom(t, source, 'admin', 'Admin123');
    expect(held.statusCode).toBe(429);
    expect(Number(held.headers['retry-after'])).toBe(15 * 60);
    expect(held.json().message).toBe('登录失败次数过多，请 15 分钟后重试');
    t.clock.advance(24 * 3_600_000);
    for (let i = 0; i < 3; i++)
      expect((await loginFrom(t, source, 'admin', 'Wrong123')).statusCode).toBe(401);
    expect((await loginFrom(t, source, 'admin', 'Admin123')).statusCode).toBe(200);
  });

  it('slows an address after 20 failures across names, for every name, and forgets it after an hour', async () => {
    const source = '203.0.113.8';
    for (let i = 0; i < 21; i++) await loginFrom(t, source, `user${i}`, 'Wrong123');
    const held = await loginFrom(t, source, 'admin', 'Admin123');
    expect(held.statusCode).toBe(429);
    expect(Number(held.headers['retry-after'])).toBe(1);
    expect((await loginFrom(t, '198.51.100.2', 'admin', 'Admin123')).statusCode).toBe(200);
    t.clock.advance(1000);
    expect((await loginFrom(t, source, 'admin', 'Admin123')).statusCode).toBe(200);
    // A success does not wipe the address's failures (one valid account must not reset a spray) …
    expect((await loginFrom(t, source, 'user99', 'Wrong123')).statusCode).toBe(401);
    expect((await loginFrom(t, source, 'admin', 'Admin123')).statusCode).toBe(429);
    // … but an hour without failures does.
    t.clock.advance(3_600_000);
    expect((await loginFrom(t, source, 'user100', 'Wrong123')).statusCode).toBe(401);
    expect((await loginFrom(t, source, 'admin', 'Admin123')).statusCode).toBe(200);
  });

  it('answers an unknown name exactly like a wrong password, throttled alike', async () => {
    for (let i = 0; i < 4; i++) {
      const known = await loginFrom(t, '203.0.113.10', 'admin', 'Wrong123');
      const unknown = await loginFrom(t, '203.0.113.11', 'nobody', 'Wrong123');
      expect(known.statusCode).toBe(unknown.statusCode);
      expect(known.json()).toEqual(unknown.json());
    }
    const a = await loginFrom(t, '203.0.113.10', 'admin', 'Wrong123');
    const b = await loginFrom(t, '203.0.113.11', 'nobody', 'Wrong123');
    expect(a.statusCode).toBe(429);
    expect(b.statusCode).toBe(429);
    expect(a.json()).toEqual(b.json());
    expect(a.headers['retry-after']).toBe(b.headers['retry-after']);
  });

  it('counts concurrent failures one by one and refuses parallel guesses beyond the free ones', async () => {
    const source = '203.0.113.12';
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => loginFrom(t, source, 'admin', 'Wrong123')),
    );
    const statuses = answers.map((r) => r.statusCode).sort();
    // The first three are free; a burst cannot buy more guesses than waiting would.
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(4);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(8);
    const rows = await t.app.db.db.selectFrom('login_failures').select(['key', 'failures']).execute();
    const counts = new Map(rows.map((r) => [r.key, r.failures]));
    expect(counts.get(`u|${source}|admin`)).toBeGreaterThanOrEqual(4);
    expect(counts.get(`s|${source}`)).toBe(counts.get(`u|${source}|admin`));
  });

  it('adds every one of many concurrent failures to the shared count', async () => {
    const generous = { free: 1000, maxDelayS: 900, memoryMs: 3_600_000 };
    const throttle = createLoginThrottle({
      db: t.app.db.db,
      now: t.clock.now,
      pair: generous,
      source: generous,
    });
    const admitted = await Promise.all(
      Array.from({ length: 40 }, () => throttle.begin('admin', '203.0.113.14')),
    );
    expect(admitted.every((a) => a.wait === 0)).toBe(true);
    const rows = await t.app.db.db
      .selectFrom('login_failures')
      .select(['key', 'failures'])
      .where('key', 'like', '%203.0.113.14%')
      .orderBy('key')
      .execute();
    expect(rows).toEqual([
      { key: 's|203.0.113.14', failures: 40 },
      { key: 'u|203.0.113.14|admin', failures: 40 },
    ]);
  });

  it('shares the counts between replicas on one database', async () => {
    for (let i = 0; i < 4; i++) await loginFrom(t, '203.0.113.13', 'admin', 'Wrong123');
    await t.restart();
    expect((await loginFrom(t, '203.0.113.13', 'admin', 'Admin123')).statusCode).toBe(429);
  });

  describe('client address', () => {
    it('ignores X-Forwarded-For unless TRUST_PROXY is set', async () => {
      for (let i = 0; i < 4; i++) {
        await loginFrom(t, '10.0.0.1', 'admin', 'Wrong123', { 'x-forwarded-for': '203.0.113.20' });
      }
      const other = await loginFrom(t, '10.0.0.1', 'admin', 'Admin123', {
        'x-forwarded-for': '198.51.100.3',
      });
      expect(other.statusCode).toBe(429);
    });

    it('counts the forwarded client address behind a trusted proxy', async () => {
      const proxied = await buildTestApp(dialect, { env: { TRUST_PROXY: '10.0.0.1' } });
      try {
        const from = async (client: string, password: string) =>
          proxied.app.inject({
            method: 'POST',
            url: '/api/auth/login',
            remoteAddress: '10.0.0.1',
            headers: { 'x-forwarded-for': client },
            payload: { username: base64('admin'), password: await encryptPassword(proxied.app, password) },
          });
        for (let i = 0; i < 30; i++) await from('203.0.113.21', 'Wrong123');
        expect((await from('203.0.113.21', 'Admin123')).statusCode).toBe(429);
        expect((await from('198.51.100.4', 'Admin123')).statusCode).toBe(200);
      } finally {
        await proxied.close();
      }
    });
  });
});
