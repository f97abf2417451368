import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, type TestApp } from '../../../../test/helpers.ts';
import { smtpReceiver } from '../../../../test/smtp-receiver.ts';
import type { DB } from '../../../db/index.ts';
import { parseAllowList } from '../../../shared/outbound-address.ts';
import { sendWebhook } from './channels.ts';
import { signature } from './message.ts';
import { CLAIM_LEASE_MS, createNotifier, type Notifier } from './notifier.ts';
import * as repo from './repository.ts';
import { createNotifySettings, type NotifySettings } from './service.ts';

const silent = { error: () => {}, warn: () => {} };
const backoff = { baseMs: 5_000, maxMs: 60_000, maxAttempts: 4 };
/** The suite's receivers listen on loopback, which webhooks reach only when an admin allows it. */
const loopbackAllowed = async () => parseAllowList('127.0.0.1');

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

/** A webhook receiver that answers 500 to the first `failures` calls, then 204. */
async function receiver(failures: number) {
  const calls: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    req.on('end', () => {
      calls.push({ headers: req.headers, body });
      res.statusCode = calls.length <= failures ? 500 : 204;
      res.end(calls.length <= failures ? 'busy' : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(dialects())('alarm notifications on %s', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let notifier: Notifier;
  let settings: NotifySettings;
  let alarmSeq = 0;

  /** A notifier on the suite's clock; `webhook` replaces its sender (a send that dies or stalls). */
  const build = (webhook?: typeof sendWebhook) =>
    createNotifier({
      db,
      now: t.clock.now,
      timeZone: 'Asia/Shanghai',
      log: silent,
      backoff,
      concurrency: 2,
      allowList: loopbackAllowed,
      ...(webhook && { senders: { webhook, email: async () => {} } }),
    });

  /** A webhook route for the raises of major alarms. */
  const majorRaisesTo = (name: string, url: string) =>
    settings.createRoute({
      name,
      channel: 'webhook',
      url,
      severities: ['major'],
      events: ['raise'],
      enabled: true,
    });

  /** An alarm in history, as the engine writes it. */
  async function alarm(severity: string, returned = false): Promise<number> {
    alarmSeq += 1;
    const at = new Date(t.clock.now()).toISOString();
    const { id } = await db
      .insertInto('alarm_history')
      .values({
        monitor_id: 1,
        rule_id: 1,
        rule_name: '功率过高',
        template_name: '',
        thing_id: alarmSeq,
        thing_name: `电表${alarmSeq}`,
        resource_type: 'region',
        resource_id: 7,
        resource_name: '一车间',
        severity,
        message: `电表${alarmSeq} 功率 93.5 kW`,
        value: '93.5',
        alarm_at: at,
        returned_at: returned ? at : null,
        active: returned ? 0 : 1,
        acknowledged: 0,
        closed: 0,
        shelved_until: null,
        suppressed: 0,
        chattering: 0,
        occurrences: 1,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  const outbox = () => db.selectFrom('alarm_notify_outbox').selectAll().orderBy('id').execute();

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.app.db.db;
    // The suite drives notifiers of its own (a short backoff, its clock); the app's would take
    // rows from the same outbox on its 1 s poll.
    await t.app.services.alarmNotify.notifier.stop();
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(() => {
    notifier = build();
    settings = createNotifySettings({ db, now: t.clock.now, notifier, allowList: loopbackAllowed });
  });
  afterEach(async () => {
    await notifier.stop();
    await db.deleteFrom('alarm_notify_outbox').execute();
    await db.deleteFrom('alarm_notify_routes').execute();
  });

  it('retries a failing webhook with backoff on the clock and delivers on the third call, signed', async () => {
    const hook = await receiver(2);
    try {
      await settings.createRoute({
        name: '值班群',
        channel: 'webhook',
        severities: ['critical', 'major'],
        events: ['raise', 'acknowledge', 'return'],
        url: hook.url,
        secret: 'hook-key',
        enabled: true,
      });
      const id = await alarm('major');
      notifier.alarmWritten({ type: 'raise', alarmId: id, quiet: false });
      await notifier.flush();
      await notifier.runDue();
      expect(hook.calls).toHaveLength(1);
      let [row] = await outbox();
      expect(row).toMatchObject({ status: 'pending', attempts: 1 });
      expect(row!.last_error).toContain('HTTP 500');
      expect(Date.parse(row!.next_attempt_at!)).toBe(t.clock.now() + 5_000);

      // Not due yet: nothing is sent before the backoff has passed.
      t.clock.advance(4_999);
      await notifier.runDue();
      expect(hook.calls).toHaveLength(1);
      t.clock.advance(1);
      await notifier.runDue();
      expect(hook.calls).toHaveLength(2);
      [row] = await outbox();
      // The wait doubles.
      expect(Date.parse(row!.next_attempt_at!)).toBe(t.clock.now() + 10_000);
      t.clock.advance(10_000);
      await notifier.runDue();
      expect(hook.calls).toHaveLength(3);
      [row] = await outbox();
      expect(row).toMatchObject({ status: 'sent', attempts: 3, last_error: '', next_attempt_at: null });

      const call = hook.calls[2]!;
      expect(call.headers['x-kilowatch-signature']).toBe(signature('hook-key', call.body));
      const body = JSON.parse(call.body);
      expect(body).toMatchObject({
        event: 'raise',
        alarm: {
          id,
          rule: '功率过高',
          severity: 'major',
          value: '93.5',
          resourceType: 'region',
          resource: '一车间',
          message: `电表${alarmSeq} 功率 93.5 kW`,
        },
        link: `/alarm_center/alarm_history?id=${id}`,
      });
    } finally {
      await hook.close();
    }
  });

  it('gives up after the last attempt and records why', async () => {
    const hook = await receiver(100);
    try {
      await settings.createRoute({
        name: '坏地址',
        channel: 'webhook',
        severities: ['critical'],
        events: ['raise'],
        url: hook.url,
        enabled: true,
      });
      notifier.alarmWritten({ type: 'raise', alarmId: await alarm('critical'), quiet: false });
      await notifier.flush();
      for (let i = 0; i < 6; i += 1) {
        await notifier.runDue();
        t.clock.advance(60_000);
      }
      expect(hook.calls).toHaveLength(backoff.maxAttempts);
      const [row] = await outbox();
      expect(row).toMatchObject({ status: 'failed', attempts: 4, next_attempt_at: null });
      expect(row!.last_error).toContain('HTTP 500');
    } finally {
      await hook.close();
    }
  });

  it('sends a notification once when two notifiers share the outbox (another process, the app itself)', async () => {
    const hook = await receiver(0);
    const other = build();
    try {
      await majorRaisesTo('值班', hook.url);
      notifier.alarmWritten({ type: 'raise', alarmId: await alarm('major'), quiet: false });
      await notifier.flush();
      await Promise.all([notifier.runDue(), other.runDue(), notifier.runDue(), other.runDue()]);
      expect(hook.calls).toHaveLength(1);
      expect((await outbox()).at(-1)).toMatchObject({ status: 'sent', attempts: 1 });
    } finally {
      await other.stop();
      await hook.close();
    }
  });

  it('a notifier killed after the receiver answered: the resend after its lease carries the same key', async () => {
    const hook = await receiver(0);
    // The first notifier's process dies once the receiver has answered, before it marks the row sent.
    let died: () => void = () => {};
    const dying = build(async (...args) => {
      await sendWebhook(...args);
      await new Promise<void>((resolve) => {
        died = resolve;
      });
      throw new Error('killed');
    });
    const other = build();
    try {
      await majorRaisesTo('值班', hook.url);
      // Queued as the engine's transaction queues it: no sender is woken.
      await notifier.recordWritten(db, { type: 'raise', alarmId: await alarm('major'), quiet: false });
      const sending = dying.runDue();
      while (hook.calls.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      // Within the lease nobody else sends it; after it, another replica does, under the same key.
      await other.runDue();
      expect(hook.calls).toHaveLength(1);
      t.clock.advance(CLAIM_LEASE_MS + 1);
      await other.runDue();
      expect(hook.calls).toHaveLength(2);
      const [first, second] = hook.calls.map((c) => c.headers['idempotency-key']);
      const row = (await outbox()).at(-1)!;
      expect(first).toBe(`kilowatch-alarm-${row.alarm_id}-raise-${row.id}`);
      expect(second).toBe(first);
      expect(row).toMatchObject({ status: 'sent' });
      died();
      await sending;
    } finally {
      await dying.stop();
      await other.stop();
      await hook.close();
    }
  });

  it('a slow send keeps its claim past the first lease: nobody else sends it meanwhile', async () => {
    const hook = await receiver(0);
    let answer: () => void = () => {};
    const slow = build(async (...args) => {
      await new Promise<void>((resolve) => {
        answer = resolve;
      });
      await sendWebhook(...args);
    });
    const other = build();
    try {
      await majorRaisesTo('慢', hook.url);
      await notifier.recordWritten(db, { type: 'raise', alarmId: await alarm('major'), quiet: false });
      const sending = slow.runDue();
      const lease = new Date(t.clock.now() + CLAIM_LEASE_MS).toISOString();
      while ((await outbox()).at(-1)?.next_attempt_at !== lease)
        await new Promise((resolve) => setTimeout(resolve, 10));
      t.clock.advance(CLAIM_LEASE_MS - 10_000);
      await slow.renewClaims();
      t.clock.advance(20_000);
      await other.runDue();
      answer();
      await sending;
      expect(hook.calls).toHaveLength(1);
      expect((await outbox()).at(-1)).toMatchObject({ status: 'sent' });
    } finally {
      await slow.stop();
      await other.stop();
      await hook.close();
    }
  });

  it('mails through the configured SMTP server in Chinese, with the link', async () => {
    const smtp = await smtpReceiver({ username: 'alarms', password: 's3cret-pw' });
    try {
      await settings.setSmtp({
        host: '127.0.0.1',
        port: smtp.port,
        security: 'none',
        username: 'alarms',
        password: 's3cret-pw',
        from: 'kilowatch@plant.example',
      });
      await settings.createRoute({
        name: '设备科',
        channel: 'email',
        severities: ['critical', 'major', 'minor', 'warning'],
        events: ['return'],
        recipients: ['lead@plant.example', 'night@plant.example'],
        enabled: true,
      });
      const id = await alarm('minor', true);
      notifier.alarmWritten({ type: 'return', alarmId: id, quiet: false });
      await notifier.flush();
      await notifier.runDue();
      expect(smtp.mails).toHaveLength(1);
      const mail = smtp.mails[0]!;
      expect(mail.user).toBe('alarms');
      expect(mail.from).toBe('kilowatch@plant.example');
      expect(mail.to).toEqual(['lead@plant.example', 'night@plant.example']);
      const decoded = decodeMail(mail.data);
      expect(decoded).toContain('告警恢复：功率过高');
      expect(decoded).toContain('级别：次要');
      // Shanghai is UTC+8 all year: the time the plant's clocks show.
      const local = new Date(t.clock.now() + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
      expect(decoded).toContain(`告警时间：${local}`);
      expect(decoded).toContain(`/alarm_center/alarm_history?id=${id}`);
      expect((await outbox())[0]).toMatchObject({ status: 'sent', attempts: 1 });
    } finally {
      await smtp.close();
    }
  });

  it('routes by severity and event', async () => {
    const hook = await receiver(0);
    try {
      const base = { channel: 'webhook' as const, url: hook.url, enabled: true };
      const critical = await settings.createRoute({
        ...base,
        name: '紧急',
        severities: ['critical'],
        events: ['raise', 'return'],
      });
      const acks = await settings.createRoute({
        ...base,
        name: '确认',
        severities: ['critical', 'warning'],
        events: ['acknowledge'],
      });
      await settings.createRoute({
        ...base,
        name: '停用',
        severities: ['critical', 'major', 'minor', 'warning'],
        events: ['raise', 'acknowledge', 'return'],
        enabled: false,
      });
      const c = await alarm('critical');
      const w = await alarm('warning');
      notifier.alarmWritten({ type: 'raise', alarmId: c, quiet: false });
      notifier.alarmWritten({ type: 'raise', alarmId: w, quiet: false });
      notifier.alarmActed({ alarmId: w, action: 'acknowledge', username: 'walker', comment: '已派人' });
      notifier.alarmActed({ alarmId: c, action: 'comment', username: 'walker', comment: '看一下' });
      notifier.alarmWritten({ type: 'return', alarmId: c, quiet: false });
      await notifier.flush();
      const rows = await outbox();
      expect(rows.map((r) => [r.route_id, r.alarm_id, r.event])).toEqual([
        [critical.id, c, 'raise'],
        [acks.id, w, 'acknowledge'],
        [critical.id, c, 'return'],
      ]);
      await notifier.runDue();
      expect(hook.calls).toHaveLength(3);
      const ack = hook.calls.map((call) => JSON.parse(call.body)).find((b) => b.event === 'acknowledge');
      expect(ack.action).toMatchObject({ username: 'walker', comment: '已派人' });
    } finally {
      await hook.close();
    }
  });

  it('never returns secrets, keeps them when left out and clears them when emptied', async () => {
    const smtp = await settings.setSmtp({
      host: 'smtp.plant.example',
      port: 465,
      security: 'tls',
      username: 'alarms',
      password: 'pw-1',
      from: 'kilowatch@plant.example',
    });
    expect(smtp).toEqual({
      host: 'smtp.plant.example',
      port: 465,
      security: 'tls',
      username: 'alarms',
      passwordSet: true,
      from: 'kilowatch@plant.example',
    });
    expect(JSON.stringify(await settings.getSmtp())).not.toContain('pw-1');
    const { password: _, ...kept } = { ...smtp, password: undefined };
    await settings.setSmtp({ ...kept, port: 587, security: 'starttls' });
    expect((await settings.getSmtp()).passwordSet).toBe(true);
    expect(
      (await db.selectFrom('alarm_notify_smtp').select('password').executeTakeFirstOrThrow()).password,
    ).toBe('pw-1');
    expect((await settings.setSmtp({ ...kept, password: '' })).passwordSet).toBe(false);

    const input = {
      name: '值班群',
      channel: 'webhook' as const,
      severities: ['critical' as const],
      events: ['raise' as const],
      url: 'http://127.0.0.1:9/hook',
      enabled: true,
    };
    const route = await settings.createRoute({ ...input, secret: 'hook-key' });
    expect(route.secretSet).toBe(true);
    const listed = JSON.stringify(await settings.listRoutes());
    expect(listed).not.toContain('hook-key');
    expect(listed).not.toContain('"secret"');
    expect((await settings.updateRoute(route.id, { ...input, name: '改名' })).secretSet).toBe(true);
    expect((await settings.updateRoute(route.id, { ...input, secret: '' })).secretSet).toBe(false);
  });

  it('refuses a route with nowhere to send, in the three languages', async () => {
    const base = { name: 'x', severities: ['major' as const], events: ['raise' as const], enabled: true };
    await expect(settings.createRoute({ ...base, channel: 'webhook' })).rejects.toMatchObject({
      status: 400,
      options: { message: 'alarm.notify.urlRequired' },
    });
    await expect(settings.createRoute({ ...base, channel: 'email', recipients: [] })).rejects.toMatchObject({
      status: 400,
      options: { message: 'alarm.notify.recipientsRequired' },
    });
    await expect(
      settings.updateRoute(999_999, { ...base, channel: 'webhook', url: 'http://x' }),
    ).rejects.toMatchObject({
      status: 404,
    });
  });

  it('sends a test through a route at once and says why it failed', async () => {
    const hook = await receiver(1);
    try {
      const route = await settings.createRoute({
        name: '值班群',
        channel: 'webhook',
        severities: ['warning'],
        events: ['raise'],
        url: hook.url,
        enabled: true,
      });
      // The receiver's status in the caller's language, never its body ("busy").
      expect(await settings.testRoute(route.id, 'zh')).toEqual({ ok: false, error: '被拒绝：HTTP 500' });
      expect(await settings.testRoute(route.id, 'en')).toEqual({ ok: true, error: null });
      expect(JSON.parse(hook.calls[1]!.body).alarm.rule).toBe('测试通知');
      expect(await outbox()).toEqual([]);
    } finally {
      await hook.close();
    }
  });

  it('refuses internal addresses on save and at send time unless an admin allows them', async () => {
    const hook = await receiver(0);
    const port = new URL(hook.url).port;
    const nothingAllowed = createNotifier({ db, now: t.clock.now, timeZone: 'UTC', log: silent, backoff });
    const strict = createNotifySettings({ db, now: t.clock.now, notifier: nothingAllowed });
    const base = {
      name: '内网',
      channel: 'webhook' as const,
      severities: ['major' as const],
      events: ['raise' as const],
      enabled: true,
    };
    try {
      for (const url of [
        'http://169.254.169.254/latest/meta-data/',
        `http://127.0.0.1:${port}/hook`,
        `http://[::1]:${port}/hook`,
        `http://[::ffff:127.0.0.1]:${port}/hook`,
        `http://2130706433:${port}/hook`,
        'http://10.0.0.8/hook',
        'http://172.16.4.4/hook',
        'http://192.168.1.1/hook',
        'http://[fd00::1]/hook',
        'http://[fe80::1]/hook',
        'http://0.0.0.0/hook',
        `http://localhost:${port}/hook`,
        `http://localhost.:${port}/hook`,
      ]) {
        await expect(strict.createRoute({ ...base, url }), url).rejects.toMatchObject({
          status: 400,
          options: { message: 'alarm.notify.urlInternal' },
        });
      }
      // A name that resolves to loopback only when sent to (DNS rebinding, a name changed after the
      // save): the connection's own lookup refuses it, and nothing reaches the receiver.
      const now = new Date(t.clock.now()).toISOString();
      const id = await repo.insertRoute(
        db,
        { ...base, url: `http://localhost:${port}/hook`, secret: '', timeoutMs: 2_000, recipients: [] },
        now,
      );
      expect(await strict.testRoute(id, 'en')).toEqual({
        ok: false,
        error:
          'Refused: localhost resolves to an internal address not on the allowed internal hosts (system settings)',
      });
      await repo.updateRoute(
        db,
        id,
        { ...base, url: `http://[::ffff:7f00:1]:${port}/hook`, secret: '', timeoutMs: 2_000, recipients: [] },
        now,
      );
      expect((await strict.testRoute(id, 'es')).error).toMatch(/^Rechazado: ::ffff:7f00:1 /);
      expect(hook.calls).toHaveLength(0);
      // The allowed loopback is reached, by address and by name.
      expect(await settings.testRoute(id, 'zh')).toEqual({ ok: true, error: null });
      const named = createNotifySettings({
        db,
        now: t.clock.now,
        notifier: createNotifier({
          db,
          now: t.clock.now,
          timeZone: 'UTC',
          log: silent,
          allowList: async () => parseAllowList('localhost'),
        }),
        allowList: async () => parseAllowList('localhost'),
      });
      const byName = await named.createRoute({ ...base, url: `http://localhost:${port}/hook` });
      expect(await named.testRoute(byName.id, 'zh')).toEqual({ ok: true, error: null });
      expect(hook.calls).toHaveLength(2);
    } finally {
      await nothingAllowed.stop();
      await hook.close();
    }
  });

  it('does not follow a redirect, and says so without the body', async () => {
    const target = await receiver(0);
    const server = createServer((_req, res) => {
      res.writeHead(302, { location: target.url }).end('internal secret page');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const route = await settings.createRoute({
        name: '跳转',
        channel: 'webhook',
        severities: ['warning'],
        events: ['raise'],
        url: `http://127.0.0.1:${port}/hook`,
        enabled: true,
      });
      expect(await settings.testRoute(route.id, 'en')).toEqual({ ok: false, error: 'Refused: HTTP 302' });
      expect(target.calls).toHaveLength(0);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await target.close();
    }
  });

  it('queues without waiting for a receiver that hangs, and a stop cuts the send short', async () => {
    let hung = 0;
    const server = createServer(() => {
      hung += 1;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      await settings.createRoute({
        name: '不应答',
        channel: 'webhook',
        severities: ['major'],
        events: ['raise'],
        url: `http://127.0.0.1:${port}/hook`,
        timeoutMs: 60_000,
        enabled: true,
      });
      notifier.start();
      notifier.alarmWritten({ type: 'raise', alarmId: await alarm('major'), quiet: false });
      await notifier.flush();
      await expect.poll(() => hung, { timeout: 5_000 }).toBe(1);
      const started = performance.now();
      await notifier.stop();
      expect(performance.now() - started).toBeLessThan(5_000);
      // Not counted as an attempt: the receiver did not fail, the server stopped.
      expect((await outbox())[0]).toMatchObject({ status: 'pending', attempts: 0 });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('forgets sent and given-up notifications after 30 days, never pending ones', async () => {
    const route = await settings.createRoute({
      name: '值班群',
      channel: 'webhook',
      severities: ['major'],
      events: ['raise'],
      url: 'http://127.0.0.1:9/hook',
      enabled: true,
    });
    const old = new Date(t.clock.now() - 31 * 24 * 3_600_000).toISOString();
    const recent = new Date(t.clock.now() - 24 * 3_600_000).toISOString();
    const row = (status: string, created: string) => ({
      route_id: route.id,
      alarm_id: 1,
      event: 'raise',
      payload: '{}',
      status,
      attempts: 1,
      next_attempt_at: status === 'pending' ? created : null,
      last_error: '',
      created_at: created,
      sent_at: null,
    });
    await db
      .insertInto('alarm_notify_outbox')
      .values([row('sent', old), row('failed', old), row('pending', old), row('sent', recent)])
      .execute();
    await notifier.prune();
    expect((await outbox()).map((r) => [r.status, r.created_at])).toEqual([
      ['pending', old],
      ['sent', recent],
    ]);
  });

  it('resumes the outbox after a restart: nothing queued is lost or sent twice', async () => {
    const hook = await receiver(1);
    try {
      await settings.createRoute({
        name: '值班群',
        channel: 'webhook',
        severities: ['major'],
        events: ['raise'],
        url: hook.url,
        enabled: true,
      });
      const first = await alarm('major');
      const second = await alarm('major');
      notifier.alarmWritten({ type: 'raise', alarmId: first, quiet: false });
      notifier.alarmWritten({ type: 'raise', alarmId: second, quiet: false });
      await notifier.flush();
      await notifier.runDue();
      // One failed (the receiver's first answer), one sent; then the server stops.
      expect(hook.calls).toHaveLength(2);
      await notifier.stop();

      notifier = build();
      t.clock.advance(5_000);
      notifier.start();
      await notifier.runDue();
      expect(hook.calls).toHaveLength(3);
      const rows = await outbox();
      expect(rows.map((r) => r.status)).toEqual(['sent', 'sent']);
      const ids = hook.calls.slice(1).map((c) => JSON.parse(c.body).alarm.id);
      expect(ids.sort()).toEqual([first, second].sort());
    } finally {
      await hook.close();
    }
  });
});

/** The mail's text: quoted-printable or base64 bodies decoded enough to read the Chinese. */
function decodeMail(raw: string): string {
  const split = raw.search(/\r?\n\r?\n/);
  const body = split < 0 ? raw : raw.slice(split);
  if (/Content-Transfer-Encoding: base64/i.test(raw)) {
    return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  }
  const qp = body.replace(/=\r?\n/g, '').replace(/(=[0-9A-F]{2})+/gi, (m) =>
    Buffer.from(
      m
        .split('=')
        .slice(1)
        .map((h) => Number.parseInt(h, 16)),
    ).toString('utf8'),
  );
  return qp;
}
