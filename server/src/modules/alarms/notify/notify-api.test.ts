import { createServer, type IncomingMessage } from 'node:http';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import { WEBHOOK_ALLOWED_HOSTS_IDENTIFIER } from '@kilowatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, login, type TestApp } from '../../../../test/helpers.ts';
import { smtpReceiver } from '../../../../test/smtp-receiver.ts';
import { type Plant, seedPlant } from '../../../ingest/testing.ts';
import { client, editorWith, roleGranting } from '../../system/testing.ts';
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
    // The receivers of this suite listen on loopback: the plant's admin allows it.
    const allowed = await api.post('/api/sysconfigs', {
      identifier: WEBHOOK_ALLOWED_HOSTS_IDENTIFIER,
      name: 'webhook hosts',
      value: '127.0.0.1',
    });
    expect(allowed.status, JSON.stringify(allowed.body)).toBe(200);
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
    expect(refused.body.data).toEqual({ ok: false, error: '无法连接 SMTP 服务器' });
    await api.put('/api/alarm/notify/smtp', { ...settings, host: '' });
    const unset = await api.post('/api/alarm/notify/smtp/test', { to: 'shift@plant.example' });
    expect(unset.body.data).toEqual({ ok: false, error: '尚未设置 SMTP 服务器' });
  });

  it('answers the SMTP test with a fixed set of outcomes, never the remote’s words', async () => {
    const test = async (settings: object, language = 'en') => {
      const saved = await api.put('/api/alarm/notify/smtp', {
        host: '127.0.0.1',
        username: '',
        password: '',
        from: 'kilowatch@plant.example',
        ...settings,
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/alarm/notify/smtp/test',
        headers: { 'x-authorization': `Bearer ${(await login(t.app)).token}`, 'accept-language': language },
        payload: { to: 'shift@plant.example' },
      });
      return res.json().data as { ok: boolean; error: string | null };
    };
    // Another service on the port: its banner is not repeated, and it reads as unreachable.
    const ssh = createTcpServer((socket) => socket.end('SSH-2.0-OpenSSH_9.6 secret-build\r\n'));
    await new Promise<void>((resolve) => ssh.listen(0, '127.0.0.1', resolve));
    const sshPort = (ssh.address() as AddressInfo).port;
    const mail = await smtpReceiver({ username: 'alarms', password: 'right-pw' });
    try {
      const banner = await test({ port: sshPort, security: 'none' });
      expect(banner).toEqual({ ok: false, error: 'The SMTP server could not be reached' });
      expect(
        await test({ port: mail.port, security: 'none', username: 'alarms', password: 'wrong' }),
      ).toEqual({
        ok: false,
        error: 'Connected, but authentication was refused',
      });
      expect(await test({ port: mail.port, security: 'tls' }, 'es')).toEqual({
        ok: false,
        error: 'Falló TLS',
      });
      expect(
        await test({ port: mail.port, security: 'none', username: 'alarms', password: 'right-pw' }),
      ).toEqual({ ok: true, error: null });
    } finally {
      await mail.close();
      await new Promise<void>((resolve) => ssh.close(() => resolve()));
    }
    // A closed port answers as a silent one would: the test tells no open port from a closed one.
    expect(await test({ port: sshPort, security: 'none' })).toEqual({
      ok: false,
      error: 'The SMTP server could not be reached',
    });
  });

  it('lets only admins set or test the SMTP server; webhook tests say the status, not the body', async () => {
    const admin = client(() => t.app, (await login(t.app)).token);
    const role = await roleGranting(admin, 'rules-only', ['/alarm_center/alarm_rule']);
    const editor = (await editorWith(() => t.app, admin, 'rules-editor', [role])).api;
    const smtp = { host: '127.0.0.1', port: 22, security: 'none', username: '', from: 'a@plant.example' };
    expect((await editor.put('/api/alarm/notify/smtp', smtp)).status).toBe(403);
    expect((await editor.post('/api/alarm/notify/smtp/test', { to: 'a@plant.example' })).status).toBe(403);
    expect((await editor.get('/api/alarm/notify/smtp')).status).toBe(200);

    // The editor may not aim a webhook at the cloud's metadata service or at the server itself.
    const route = {
      name: '内网',
      channel: 'webhook',
      severities: ['major'],
      events: ['raise'],
      enabled: true,
    };
    const metadata = await editor.post('/api/alarm/notify/routes', {
      ...route,
      url: 'http://169.254.169.254/latest/meta-data/',
    });
    expect(metadata.status).toBe(400);
    expect(metadata.body.message).toBe('拒绝：169.254.169.254 是内部地址，且不在系统设置允许的内部主机中');
    expect(
      (await editor.post('/api/alarm/notify/routes', { ...route, url: 'http://[::1]:8080/' })).status,
    ).toBe(400);

    const internal = createServer((_req, res) => {
      res.statusCode = 403;
      res.end('{"token":"internal-secret"}');
    });
    await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
    try {
      const saved = await editor.post('/api/alarm/notify/routes', {
        ...route,
        url: `http://127.0.0.1:${(internal.address() as AddressInfo).port}/`,
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      const tested = await editor.post(`/api/alarm/notify/routes/${saved.body.data.id}/test`, {});
      expect(tested.body.data).toEqual({ ok: false, error: '被拒绝：HTTP 403' });
      await editor.del(`/api/alarm/notify/routes/${saved.body.data.id}`);
    } finally {
      await new Promise<void>((resolve) => internal.close(() => resolve()));
    }
  });

  it('checks the allowed internal hosts when an admin saves them', async () => {
    const bad = await api.post('/api/sysconfigs', {
      identifier: WEBHOOK_ALLOWED_HOSTS_IDENTIFIER,
      name: 'again',
      value: 'x',
    });
    expect(bad.status).toBe(409);
    const list = await api.get(`/api/sysconfigs?identifier=${WEBHOOK_ALLOWED_HOSTS_IDENTIFIER}`);
    const { id } = list.body.data.list[0];
    for (const value of ['10.0.0.0/33', 'http://scada', '1.2.3.4/8/1', 'bad_host!']) {
      const res = await api.put(`/api/sysconfigs/${id}`, {
        identifier: WEBHOOK_ALLOWED_HOSTS_IDENTIFIER,
        name: 'webhook hosts',
        value,
      });
      expect(res.status, value).toBe(400);
    }
    const ok = await api.put(`/api/sysconfigs/${id}`, {
      identifier: WEBHOOK_ALLOWED_HOSTS_IDENTIFIER,
      name: 'webhook hosts',
      value: '127.0.0.1, scada.plant.local\n10.20.0.0/16 fd00::/8',
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });
});
