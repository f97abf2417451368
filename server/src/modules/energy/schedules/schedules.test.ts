import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, login, type TestApp } from '../../../../test/helpers.ts';
import { smtpReceiver } from '../../../../test/smtp-receiver.ts';
import { type Plant, seedPlant } from '../../../ingest/testing.ts';
import type { Mail } from '../../mail/index.ts';
import { editorWith, roleGranting } from '../../system/testing.ts';
import { type Api, apiAs } from '../../things/testing.ts';
import * as repo from './repository.ts';
import { createReportSchedules } from './service.ts';

// biome-ignore lint/suspicious/noExplicitAny: tests read whatever the body holds
type Body = any;

/** `YYYY-MM-DD HH:mm` in the plant's zone (Asia/Shanghai, UTC+8). */
const sh = (text: string) => Date.parse(`${text.replace(' ', 'T')}:00+08:00`);
const silent = { error: () => {}, warn: () => {} };

/** The base64 body of the MIME part that is an attachment (nodemailer's multipart/mixed). */
function attachmentOf(raw: string): { headers: string; content: Buffer } {
  const boundary = /boundary="?([^";\r\n]+)"?/.exec(raw)?.[1];
  if (!boundary) throw new Error('not multipart');
  const part = raw.split(`--${boundary}`).find((p) => /Content-Disposition: attachment/i.test(p));
  if (!part) throw new Error('no attachment');
  const split = part.indexOf('\r\n\r\n');
  return {
    headers: part.slice(0, split),
    content: Buffer.from(part.slice(split + 4).replace(/\s+/g, ''), 'base64'),
  };
}

/** The Subject header unfolded, its RFC 2047 encoded words (Q or B, UTF-8) decoded. */
function subjectOf(raw: string): string {
  const folded = /^Subject: (.*(?:\r\n[ \t].*)*)/m.exec(raw)?.[1] ?? '';
  const bytes = folded
    .replace(/\r\n[ \t]/g, ' ')
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('latin1')
        : text
            .replace(/_/g, ' ')
            .replace(/=([0-9A-F]{2})/gi, (_h, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    );
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

describe.each(dialects())('scheduled reports on %s', (dialect) => {
  let t: TestApp;
  let api: Api;
  let english: Api;
  let keeper: Api;
  let reader: Api;
  let plant: Plant;
  let reportId: number;
  const ok = async <T = Body>(p: Promise<{ status: number; body: Body }>): Promise<T> => {
    const res = await p;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as T;
  };
  /** Moves the test clock on; the admin logs in again (access tokens last 30 minutes). */
  const advance = async (ms: number) => {
    t.clock.advance(ms);
    api = apiAs(() => t.app, (await login(t.app)).token);
  };
  const input = (extra: Record<string, unknown> = {}) => ({
    frequency: 'daily',
    weekday: 1,
    monthDay: 1,
    time: '07:00',
    recipients: ['energy@plant.example'],
    language: 'zh',
    enabled: true,
    ...extra,
  });

  beforeAll(async () => {
    t = await buildTestApp(dialect, { env: { PLANT_TIMEZONE: 'Asia/Shanghai' } });
    const { token } = await login(t.app);
    api = apiAs(() => t.app, token);
    english = apiAs(() => t.app, token, { 'accept-language': 'en' });
    plant = await seedPlant(api, 1);
    const roleId = await roleGranting(api, 'kpi-editor', ['/analysis/kpi']);
    keeper = (await editorWith(() => t.app, api, 'kpi-keeper', [roleId])).api as unknown as Api;
    reader = (await editorWith(() => t.app, api, 'kpi-reader')).api as unknown as Api;
    const at = (ts: number, value: number) => ({ thingId: plant.things[0]!.id, metric: 'P', ts, value });
    await t.app.telemetry.write([at(sh('2026-11-22 09:10'), 12), at(sh('2026-11-22 09:40'), 18)]);
    const report = await ok(api.post('/api/reports/0/children', { name: '日报', folder: false }));
    reportId = report.id;
    await ok(
      api.post(`/api/reports/${reportId}/components`, {
        title: '功率',
        chartType: 'line',
        params: { thingId: plant.things[0]!.id },
        metrics: [{ identifier: 'P', name: '有功功率', statistics: 'avg', unit: 'kW' }],
      }),
    );
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates, lists, changes and deletes schedules; the next run is on the plant calendar', async () => {
    const base = `/api/reports/${reportId}/schedules`;
    expect(await ok(api.get(base))).toEqual([]);
    // The clock is 16:00 on 22 November in Shanghai: 07:00 is tomorrow's.
    const created = await ok(keeper.post(base, input()));
    expect(created).toMatchObject({
      reportId,
      frequency: 'daily',
      time: '07:00',
      recipients: ['energy@plant.example'],
      enabled: true,
      nextRunAt: '2026-11-22T23:00:00.000Z',
      lastRun: null,
    });
    expect(created).not.toHaveProperty('leaseUntil');

    const weekly = await ok(
      api.put(
        `/api/report-schedules/${created.id}`,
        input({ frequency: 'weekly', weekday: 1, language: 'en' }),
      ),
    );
    // Sunday 22 November: Monday is tomorrow too.
    expect(weekly).toMatchObject({
      frequency: 'weekly',
      language: 'en',
      nextRunAt: '2026-11-22T23:00:00.000Z',
    });
    const disabled = await ok(api.put(`/api/report-schedules/${created.id}`, input({ enabled: false })));
    expect(disabled.nextRunAt).toBeNull();
    // Addresses are not every user's to read: the KPI grant is needed for the list too.
    expect((await reader.get(base)).status).toBe(403);
    expect(await ok(keeper.get(base))).toHaveLength(1);

    expect(await ok(api.del(`/api/report-schedules/${created.id}`))).toEqual({ ok: true });
    const gone = await english.del(`/api/report-schedules/${created.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe(`Report schedule ${created.id} does not exist`);
    expect(await ok(api.get(base))).toEqual([]);
  });

  it('refuses bad input, unknown reports and folders, and writes without the KPI grant', async () => {
    const base = `/api/reports/${reportId}/schedules`;
    for (const bad of [
      input({ recipients: ['not-an-address'] }),
      input({ recipients: [] }),
      input({ time: '24:00' }),
      input({ time: '7:00' }),
      input({ monthDay: 32 }),
      input({ weekday: 0 }),
      input({ frequency: 'hourly' }),
      input({ language: 'fr' }),
    ]) {
      expect((await api.post(base, bad)).status, JSON.stringify(bad)).toBe(400);
    }
    expect((await api.post('/api/reports/999999/schedules', input())).status).toBe(404);
    const folder = await ok(api.post('/api/reports/0/children', { name: '文件夹', folder: true }));
    expect((await api.post(`/api/reports/${folder.id}/schedules`, input())).status).toBe(422);
    expect((await reader.post(base, input())).status).toBe(403);
    const mine = await ok(api.post(base, input()));
    expect((await reader.post(`/api/report-schedules/${mine.id}/send`, {})).status).toBe(403);
    expect((await reader.del(`/api/report-schedules/${mine.id}`)).status).toBe(403);
    expect((await reader.get(`/api/report-schedules/${mine.id}/runs`)).status).toBe(403);
    expect((await api.get('/api/report-schedules/999999/runs')).status).toBe(404);
    await ok(api.del(`/api/report-schedules/${mine.id}`));
  });

  it('"send now" without SMTP settings records a failed run saying so, not an error', async () => {
    const schedule = await ok(api.post(`/api/reports/${reportId}/schedules`, input()));
    const run = await ok(api.post(`/api/report-schedules/${schedule.id}/send`, {}));
    expect(run).toMatchObject({
      scheduleId: schedule.id,
      trigger: 'manual',
      status: 'failed',
      errorCode: 'smtpNotConfigured',
      error: 'SMTP server not configured',
      recipients: ['energy@plant.example'],
      // The clock is on 22 November: yesterday in Shanghai.
      periodStart: '2026-11-20T16:00:00.000Z',
      periodEnd: '2026-11-21T16:00:00.000Z',
    });
    expect(run.finishedAt).not.toBeNull();
    expect(await ok(api.get(`/api/report-schedules/${schedule.id}/runs`))).toEqual([run]);
    const [listed] = await ok(api.get(`/api/reports/${reportId}/schedules`));
    expect(listed.lastRun).toEqual(run);
    // A deleted report takes its schedules and their runs with it.
    const other = await ok(api.post('/api/reports/0/children', { name: '临时', folder: false }));
    const doomed = await ok(api.post(`/api/reports/${other.id}/schedules`, input()));
    await ok(api.del(`/api/reports/${other.id}`));
    expect((await api.get(`/api/report-schedules/${doomed.id}/runs`)).status).toBe(404);
    await ok(api.del(`/api/report-schedules/${schedule.id}`));
  });

  it('mails the xlsx of the previous day at the due time through the SMTP settings, once', async () => {
    const smtp = await smtpReceiver();
    try {
      await ok(
        api.put('/api/alarm/notify/smtp', {
          host: '127.0.0.1',
          port: smtp.port,
          security: 'none',
          username: '',
          from: 'kilowatch@plant.example',
        }),
      );
      const schedule = await ok(
        api.post(
          `/api/reports/${reportId}/schedules`,
          input({ recipients: ['a@plant.example', 'b@plant.example'], language: 'en' }),
        ),
      );
      // Not due yet: nothing goes.
      await t.app.services.reportSchedules.runDue();
      expect(smtp.mails).toHaveLength(0);

      await advance(Date.parse(schedule.nextRunAt) - t.clock.now() + 60_000);
      await t.app.services.reportSchedules.runDue();
      await t.app.services.reportSchedules.runDue();
      expect(smtp.mails).toHaveLength(1);
      const mail = smtp.mails[0]!;
      expect(mail.to).toEqual(['a@plant.example', 'b@plant.example']);
      // The subject names the report and the day: '[Kilowatch] 日报 (2026-11-22)', as an encoded word.
      expect(subjectOf(mail.data)).toBe('[Kilowatch] 日报 (2026-11-22)');
      const file = attachmentOf(mail.data);
      expect(file.headers).toContain('spreadsheetml');
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(file.content as unknown as ArrayBuffer);
      const sheet = book.getWorksheet('功率')!;
      expect(sheet.getRow(5).values).toEqual([undefined, 'Time (Asia/Shanghai)', '有功功率 (kW)']);
      expect(sheet.rowCount).toBe(29);
      expect(sheet.getCell('A15').value).toBe('09:00');
      // 22 November 09:00 holds 12 and 18.
      expect(sheet.getCell('B15').value).toBe(15);

      const [run] = await ok(api.get(`/api/report-schedules/${schedule.id}/runs`));
      expect(run).toMatchObject({
        trigger: 'schedule',
        status: 'sent',
        errorCode: null,
        periodStart: '2026-11-21T16:00:00.000Z',
        periodEnd: '2026-11-22T16:00:00.000Z',
      });
      const [listed] = await ok(api.get(`/api/reports/${reportId}/schedules`));
      expect(listed.nextRunAt).toBe('2026-11-23T23:00:00.000Z');

      // The mail server gone: the next run fails with its reason, and the schedule moves on.
      await smtp.close();
      await advance(24 * 3_600_000);
      await t.app.services.reportSchedules.runDue();
      const [failed] = await ok(api.get(`/api/report-schedules/${schedule.id}/runs`));
      expect(failed).toMatchObject({ status: 'failed', errorCode: 'sendFailed' });
      expect(failed.error).not.toBe('');
      await ok(api.del(`/api/report-schedules/${schedule.id}`));
    } finally {
      await smtp.close().catch(() => undefined);
    }
  });

  /** A runner beside the app's own, on the app's database and services, with its own mailer. */
  const extraRunner = (own: Pick<Parameters<typeof createReportSchedules>[0], 'mailer' | 'retentionDays'>) =>
    createReportSchedules({
      db: t.app.db.db,
      now: t.clock.now,
      calendar: t.app.services.calendar,
      reports: t.app.services.reports,
      query: t.app.services.query,
      log: silent,
      ...own,
    });

  it('two runners racing for a due schedule send it once', async () => {
    const schedule = await ok(api.post(`/api/reports/${reportId}/schedules`, input()));
    const sent: Mail[] = [];
    const runner = () =>
      extraRunner({
        mailer: {
          async send(mail) {
            // Slow enough that both runners are in their runs at once.
            await new Promise((resolve) => setTimeout(resolve, 50));
            sent.push(mail);
          },
        },
        retentionDays: async () => 180,
      });
    const [a, b] = [runner(), runner()];
    // The app's own runner stays out of it: only the two racers may claim.
    await t.app.services.reportSchedules.stop();
    await advance(Date.parse(schedule.nextRunAt) - t.clock.now() + 1_000);
    await Promise.all([a.runDue(), b.runDue(), a.runDue(), b.runDue()]);
    expect(sent).toHaveLength(1);
    const runs = await ok<Body[]>(api.get(`/api/report-schedules/${schedule.id}/runs`));
    expect(runs.map((r) => r.status)).toEqual(['sent']);
  });

  it('a run sent by a replica killed before it moved the schedule on is not sent again after the lease', async () => {
    const schedule = await ok(api.post(`/api/reports/${reportId}/schedules`, input()));
    // Other schedules of the suite fall due too: only this one's mails count.
    const sent: Mail[] = [];
    const mailer = {
      async send(mail: Mail) {
        if (mail.messageId?.startsWith(`kilowatch-schedule-${schedule.id}-`)) sent.push(mail);
      },
    };
    await t.app.services.reportSchedules.stop();
    await advance(Date.parse(schedule.nextRunAt) - t.clock.now() + 1_000);
    // The dead replica: it claimed the due run, sent it and recorded it, and died there.
    const db = t.app.db.db;
    const record = (await repo.scheduleById(db, schedule.id))!;
    expect(
      await repo.claim(
        db,
        record,
        new Date(t.clock.now()).toISOString(),
        new Date(t.clock.now() + 600_000).toISOString(),
      ),
    ).toBe(true);
    const run = await repo.startRun(db, {
      scheduleId: schedule.id,
      trigger: 'schedule',
      startedAt: new Date(t.clock.now()).toISOString(),
      periodStart: schedule.nextRunAt,
      periodEnd: schedule.nextRunAt,
      recipients: ['energy@plant.example'],
    });
    await repo.finishRun(db, run.id, {
      status: 'sent',
      errorCode: null,
      error: '',
      at: new Date(t.clock.now()).toISOString(),
    });

    const other = extraRunner({ mailer, retentionDays: async () => 180 });
    await other.runDue();
    expect(sent).toHaveLength(0);
    await advance(10 * 60_000 + 1_000);
    await other.runDue();
    expect(sent).toHaveLength(0);
    const [listed] = (await ok<Body[]>(api.get(`/api/reports/${reportId}/schedules`))).filter(
      (x) => x.id === schedule.id,
    );
    expect(Date.parse(listed!.nextRunAt as string)).toBeGreaterThan(t.clock.now());
    expect(
      (await ok<Body[]>(api.get(`/api/report-schedules/${schedule.id}/runs`))).map((r) => r.status),
    ).toEqual(['sent']);
    // The next due time is sent once, with a Message-ID its retries would share.
    await advance(Date.parse(listed!.nextRunAt as string) - t.clock.now() + 1_000);
    await other.runDue();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.messageId).toBe(
      `kilowatch-schedule-${schedule.id}-${Date.parse(listed!.nextRunAt as string)}`,
    );
    await ok(api.del(`/api/report-schedules/${schedule.id}`));
  });

  it("keeps runs for the days the system setting says (180 by default), and each schedule's last run", async () => {
    const schedule = await ok(api.post(`/api/reports/${reportId}/schedules`, input({ enabled: false })));
    const other = await ok(api.post(`/api/reports/${reportId}/schedules`, input({ enabled: false })));
    const day = 86_400_000;
    const at = (daysAgo: number) => new Date(t.clock.now() - daysAgo * day).toISOString();
    const run = (scheduleId: number, daysAgo: number, status = 'sent') => ({
      schedule_id: scheduleId,
      trigger: 'schedule',
      started_at: at(daysAgo),
      finished_at: status === 'running' ? null : at(daysAgo),
      period_start: at(daysAgo + 1),
      period_end: at(daysAgo),
      status,
      error_code: null,
      error: '',
      recipients: '["ops@example.com"]',
    });
    await t.app.db.db
      .insertInto('report_schedule_runs')
      .values([run(schedule.id, 400), run(schedule.id, 200), run(schedule.id, 100), run(schedule.id, 10)])
      .execute();
    // The other schedule's only run is older than any retention: its list still shows it.
    await t.app.db.db
      .insertInto('report_schedule_runs')
      .values([run(other.id, 500)])
      .execute();
    const runner = () =>
      extraRunner({
        mailer: { send: async () => undefined },
        retentionDays: () => t.app.services.system.sysConfigs.scheduleRunRetentionDays(),
      });
    const ages = async (id: number) =>
      (await ok<Body[]>(api.get(`/api/report-schedules/${id}/runs`))).map((r: Body) =>
        Math.round((t.clock.now() - Date.parse(r.startedAt)) / day),
      );
    await runner().runDue();
    expect(await ages(schedule.id)).toEqual([10, 100]);
    expect(await ages(other.id)).toEqual([500]);

    // A bad value is refused in the user's language; a good one takes effect at the next prune.
    const en = apiAs(() => t.app, (await login(t.app)).token, { 'accept-language': 'en' });
    const bad = await en.post('/api/sysconfigs', {
      identifier: 'scheduleRunRetentionDays',
      name: '定时发送记录保留天数',
      value: '0',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('The days schedule runs are kept must be a whole number from 1 to 3650');
    const setting = await ok(
      api.post('/api/sysconfigs', {
        identifier: 'scheduleRunRetentionDays',
        name: '定时发送记录保留天数',
        value: ' 30 ',
      }),
    );
    expect(setting.value).toBe('30');
    await runner().runDue();
    expect(await ages(schedule.id)).toEqual([10]);
    await ok(api.del(`/api/sysconfigs/${setting.id}`));
    await ok(api.del(`/api/report-schedules/${schedule.id}`));
    await ok(api.del(`/api/report-schedules/${other.id}`));
  });
});
