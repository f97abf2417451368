import type { ReportNode, ReportSchedule, ReportScheduleRun } from '@kilowatch/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../../../lib/i18n.ts';
import { useSession } from '../../../../lib/session.ts';
import { type FetchCall, mockApi, recordToasts, renderScreen } from '../../../../testing/render-with-api.tsx';
import { ScheduleDialog } from './ScheduleDialog.tsx';

const report: ReportNode = {
  id: 3,
  parentId: null,
  name: '日报',
  folder: false,
  report: true,
  published: false,
  publishedAt: null,
  level: 1,
  sort: 0,
  children: [],
};

const failedRun: ReportScheduleRun = {
  id: 21,
  scheduleId: 8,
  trigger: 'manual',
  startedAt: '2026-11-24T01:00:00.000Z',
  finishedAt: '2026-11-24T01:00:01.000Z',
  periodStart: '2026-11-22T16:00:00.000Z',
  periodEnd: '2026-11-23T16:00:00.000Z',
  status: 'failed',
  errorCode: 'smtpNotConfigured',
  error: 'SMTP server not configured',
  recipients: ['energy@plant.example'],
};

const schedule: ReportSchedule = {
  id: 8,
  reportId: 3,
  frequency: 'weekly',
  weekday: 1,
  monthDay: 1,
  time: '07:00',
  recipients: ['energy@plant.example'],
  language: 'zh',
  enabled: true,
  nextRunAt: '2026-11-29T23:00:00.000Z',
  lastRun: failedRun,
  createdAt: '2026-11-24T00:00:00.000Z',
  updatedAt: '2026-11-24T00:00:00.000Z',
};

const WAIT = { timeout: 8000 };
let calls: FetchCall[];
afterEach(() => vi.unstubAllGlobals());

const open = () => {
  useSession.setState({ roles: ['admin'], routes: [] });
  useSession.getState().setUser({
    id: 1,
    username: 'admin',
    name: '管理员',
    avatar: '',
    introduction: '',
    roles: ['admin'],
    routes: [],
    userLevel: 1,
    setting: {},
    timeZone: 'Asia/Shanghai',
  });
  return renderScreen(<ScheduleDialog report={report} open onClose={() => {}} />);
};

describe('<ScheduleDialog>', { timeout: 120_000 }, () => {
  it('shows the empty state, checks the form in the user language and creates a schedule', async () => {
    let created = false;
    calls = mockApi((c) => {
      if (c.path === '/api/reports/3/schedules' && c.method === 'GET')
        return { body: created ? [schedule] : [] };
      if (c.path === '/api/reports/3/schedules' && c.method === 'POST') {
        created = true;
        return { body: schedule };
      }
      return undefined;
    });
    open();
    const empty = await screen.findByTestId('schedule-empty', {}, WAIT);
    expect(await within(empty).findByText('该报表还没有定时发送', {}, WAIT)).toBeTruthy();
    fireEvent.click(within(empty).getByRole('button', { name: /新增定时发送/ }));

    const form = await screen.findByTestId('schedule-form', {}, WAIT);
    const dialog = form.closest('.ant-modal') as HTMLElement;
    fireEvent.change(within(form).getByLabelText('发送时间'), { target: { value: '7:00' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s?定/ }));
    expect(await within(form).findByText('时间格式为 HH:mm，例如 07:00', {}, WAIT)).toBeTruthy();
    expect(await within(form).findByText('请至少填写一个收件人', {}, WAIT)).toBeTruthy();

    fireEvent.change(within(form).getByLabelText('发送时间'), { target: { value: '07:30' } });
    const recipients = within(form).getByLabelText('收件人');
    fireEvent.change(recipients, { target: { value: 'nobody' } });
    fireEvent.keyDown(recipients, { key: 'Enter', code: 'Enter' });
    expect(await within(form).findByText('邮箱地址无效：nobody', {}, WAIT)).toBeTruthy();
    fireEvent.click(within(form).getByLabelText('close'));
    fireEvent.change(recipients, { target: { value: 'energy@plant.example' } });
    fireEvent.keyDown(recipients, { key: 'Enter', code: 'Enter' });
    // Weekly asks for the weekday and says what the file covers.
    fireEvent.click(within(form).getByText('每周'));
    expect(await within(form).findByText('附件为上一个完整周（周一至周日）的报表', {}, WAIT)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s?定/ }));

    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true), WAIT);
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      frequency: 'weekly',
      weekday: 1,
      monthDay: 1,
      time: '07:30',
      recipients: ['energy@plant.example'],
      language: 'zh',
      enabled: true,
    });
    // The list comes back with the new schedule.
    expect(await screen.findByTestId('schedule-list', {}, WAIT)).toBeTruthy();
    expect(await screen.findByText('每周一 07:00', {}, WAIT)).toBeTruthy();
  });

  it('lists schedules with their last run, sends now and shows the runs', async () => {
    calls = mockApi((c) => {
      if (c.path === '/api/reports/3/schedules' && c.method === 'GET') return { body: [schedule] };
      if (c.path === '/api/report-schedules/8/send') return { body: { ...failedRun, id: 22 } };
      if (c.path === '/api/report-schedules/8/runs') return { body: [failedRun] };
      return undefined;
    });
    open();
    const list = await screen.findByTestId('schedule-list', {}, WAIT);
    expect(await within(list).findByText('每周一 07:00', {}, WAIT)).toBeTruthy();
    expect(within(list).getByText('energy@plant.example')).toBeTruthy();
    // The last run failed for want of an SMTP server: said so, in the user's language.
    expect(within(list).getByTestId('schedule-run-status').textContent).toBe('失败');
    expect(within(list).getByTestId('schedule-run-error').textContent).toContain('未配置 SMTP 服务器');

    fireEvent.click(within(list).getByLabelText('立即发送'));
    await waitFor(
      () => expect(calls.some((c) => c.path === '/api/report-schedules/8/send')).toBe(true),
      WAIT,
    );
    expect(await screen.findByText(/发送失败：未配置 SMTP 服务器/, {}, WAIT)).toBeTruthy();

    // The expanded row lists the runs.
    fireEvent.click(within(list).getAllByLabelText(/展开行|Expand row/)[0]!);
    const runs = await screen.findByTestId('schedule-runs', {}, WAIT);
    expect(await within(runs).findByText('2026-11-23 ~ 2026-11-23', {}, WAIT)).toBeTruthy();
    expect(within(runs).getByText('手动')).toBeTruthy();
  });

  it('deletes a schedule after confirmation', async () => {
    const toasts = recordToasts();
    let deleted = false;
    calls = mockApi((c) => {
      if (c.path === '/api/reports/3/schedules' && c.method === 'GET')
        return { body: deleted ? [] : [schedule] };
      if (c.path === '/api/report-schedules/8' && c.method === 'DELETE') {
        deleted = true;
        return { body: { ok: true } };
      }
      return undefined;
    });
    open();
    const list = await screen.findByTestId('schedule-list', {}, WAIT);
    expect(await within(list).findByText('每周一 07:00', {}, WAIT)).toBeTruthy();
    fireEvent.click(within(list).getByLabelText('删除'));
    expect((await screen.findAllByText('删除该定时发送？', {}, WAIT)).length).toBeGreaterThan(0);
    fireEvent.click(await screen.findByTestId('confirm-delete-ok', {}, WAIT));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true), WAIT);
    expect(await screen.findByTestId('schedule-empty', {}, WAIT)).toBeTruthy();
    expect(toasts.some((x) => x.kind === 'success')).toBe(true);
  });

  it('says when the schedules cannot be loaded, and retries', async () => {
    let fail = true;
    calls = mockApi((c) => {
      if (c.path === '/api/reports/3/schedules')
        return fail ? { status: 500, body: { code: 'INTERNAL', message: '服务器错误' } } : { body: [] };
      return undefined;
    });
    open();
    const error = await screen.findByTestId('schedule-load-error', {}, WAIT);
    expect(await within(error).findByText('定时发送加载失败', {}, WAIT)).toBeTruthy();
    fail = false;
    fireEvent.click(within(error).getByRole('button', { name: /重\s?试/ }));
    expect(await screen.findByTestId('schedule-empty', {}, WAIT)).toBeTruthy();
  });
});
