import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, login, type TestApp } from '../../../../test/helpers.ts';
import { smtpReceiver } from '../../../../test/smtp-receiver.ts';
import { type Plant, seedPlant } from '../../../ingest/testing.ts';
import { type Api, apiAs } from '../../things/testing.ts';
import { signature } from './message.ts';

describe.each(dialects())('alarm notifications through the app on %s', (dialect) => {
  let t: TestApp;
  let api: Api;
  let plant: Plant;
  const calls: { headers: IncomingMessage['headers']; body: string }[] = [];
  const hook = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    req.on('end', () => {
      calls.push({ headers: req.headers, body });
      res.statusCode = 200;
      res.end();
    });
  });
  let hookUrl = '';

  const notifier = () => t.app.services.alarmNotify.notifier;
  /** Waits for what the engine and the notifier queued, then sends what is due. */
  const settle = async () => {
    await t.app.services.alarmRunner.flush();
    await notifier().flush();
    await notifier().runDue();
  };
  const send = async (token: string, values: Record<string, number>) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/${token}/telemetry`,
      payload: { ts: t.clock.now(), values },
    });
    expect(res.statusCode, res.body).toBe(200);
    await settle();
  };
  const events = () => calls.map((c) => JSON.parse(c.body) as { event: string; action: unknown });

  beforeAll(async () => {
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
    t = await buildTestApp(dialect);
    api = apiAs(() => t.app, (await login(t.app)).token);
    plant = await seedPlant(api, 1);
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => hook.close(() => resolve()));
  });

  it('keeps the SMTP password write-only', async () => {
    const smtp = {
      host: 'smtp.plant.example',
      port: 587,
      security: 'starttls',
      username: 'alarms',
      from: 'kilowatch@plant.example',
    };
    const saved = await api.put('/api/alarm/notify/smtp', { ...smtp, password: 'pw-secret' });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data).toEqual({ ...smtp, passwordSet: true });
    const read = await api.get('/api/alarm/notify/smtp');
    expect(JSON.stringify(read.body)).not.toContain('pw-secret');
    expect(read.body.data.passwordSet).toBe(true);
    expect((await api.put('/api/alarm/notify/smtp', { ...smtp, from: 'not an address' })).status).toBe(400);
  });

  it('notifies the raise, the acknowledgement with its comment and the return to a signed webhook', async () => {
    const route = await api.post('/api/alarm/notify/routes', {
      name: '值班群',
      channel: 'webhook',
      severities: ['major'],
      events: ['raise', 'acknowledge', 'return'],
      url: hookUrl,
      secret: 'hook-key',
      enabled: true,
    });
    expect(route.status, JSON.stringify(route.body)).toBe(200);
    expect(route.body.data).toMatchObject({ secretSet: true, timeoutMs: 10_000, recipients: [] });
    const listed = await api.get('/api/alarm/notify/routes');
    expect(JSON.stringify(listed.body)).not.toContain('hook-key');
    const refused = await api.post('/api/alarm/notify/routes', {
      name: '空',
      channel: 'email',
      severities: ['major'],
      events: ['raise'],
      enabled: true,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('邮件通知须至少填写一个收件人');

    const rule = (
      await api.post('/api/alarm/rules', {
        name: '功率过高',
        categoryId: plant.categoryId,
        ability: 'P',
        condition: { kind: 'threshold', op: '>', value: 80 },
        onDelay: 0,
        offDelay: 0,
        deadband: 0,
        severity: 'major',
        message: '{thing} 功率 {value} kW',
      })
    ).body.data;
    const [meter] = plant.things;
    await api.post('/api/alarm/monitors/batch', {
      appliedType: 'rule',
      appliedId: rule.id,
      targets: [{ type: 'thing', id: meter!.id }],
    });
    await api.post(`/api/alarm/rules/${rule.id}/state`, { action: 'enable' });
    await t.app.services.alarmRunner.reload();

    t.clock.advance(1000);
    await send(meter!.token, { P: 95 });
    expect(events().map((e) => e.event)).toEqual(['raise']);
    expect(calls[0]!.headers['x-kilowatch-signature']).toBe(signature('hook-key', calls[0]!.body));
    const alarmId = JSON.parse(calls[0]!.body).alarm.id as number;

    const acked = await api.post(`/api/alarm/history/${alarmId}/actions`, {
      action: 'acknowledge',
      comment: '已通知值班电工',
    });
    expect(acked.status).toBe(200);
    // A comment is not notified.
    await api.post(`/api/alarm/history/${alarmId}/actions`, { action: 'comment', comment: '在查' });
    await settle();
    expect(events()[1]).toMatchObject({
      event: 'acknowledge',
      action: { username: 'admin', comment: '已通知值班电工' },
    });

    t.clock.advance(1000);
    await send(meter!.token, { P: 60 });
    expect(events().map((e) => e.event)).toEqual(['raise', 'acknowledge', 'return']);

    const outbox = await api.get('/api/alarm/notify/outbox?status=sent');
    expect(outbox.status).toBe(200);
    expect(outbox.body.data.total).toBe(3);
    expect(outbox.body.data.list.map((o: { event: string }) => o.event)).toEqual([
      'return',
      'acknowledge',
      'raise',
    ]);

    const tested = await api.post(`/api/alarm/notify/routes/${route.body.data.id}/test`, {});
    expect(tested.body.data).toEqual({ ok: true, error: null });
    expect(calls).toHaveLength(4);
    expect((await api.del(`/api/alarm/notify/routes/${route.body.data.id}`)).status).toBe(200);
    expect((await api.get('/api/alarm/notify/outbox')).body.data.total).toBe(0);
  });

  it('sends a test e-mail through the saved SMTP server and says why it failed', async () => {
    const { port, mails, close } = await smtpReceiver();
    const settings = { port, security: 'none', username: '', password: '', from: 'kilowatch@plant.example' };
    try {
      await api.put('/api/alarm/notify/smtp', { ...settings, host: '127.0.0.1' });
      expect((await api.post('/api/alarm/notify/smtp/test', { to: 'not an address' })).status).toBe(400);
      const sent = await api.post('/api/alarm/notify/smtp/test', { to: 'shift@plant.example' });
      expect(sent.body.data).toEqual({ ok: true, error: null });
      expect(mails).toHaveLength(1);
      expect(mails[0]!.to).toEqual(['shift@plant.example']);
    } finally {
      await close();
    }
    const refused = await api.post('/api/alarm/notify/smtp/test', { to: 'shift@plant.example' });
    expect(refused.body.data.ok).toBe(false);
    expect(refused.body.data.error).toMatch(/ECONNREFUSED|connect/i);
    await api.put('/api/alarm/notify/smtp', { ...settings, host: '' });
    const unset = await api.post('/api/alarm/notify/smtp/test', { to: 'shift@plant.example' });
    expect(unset.body.data).toEqual({ ok: false, error: 'SMTP server not configured' });
  });
});
