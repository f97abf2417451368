import type { NotifyRoute } from '@kilowatch/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../../lib/i18n.ts';
import { useSession } from '../../../lib/session.ts';
import { type FetchCall, mockApi, page, renderScreen } from '../../../testing/render-with-api.tsx';
import { NotifyTab } from './NotifyTab.tsx';

const hook: NotifyRoute = {
  id: 4,
  name: '值班群',
  channel: 'webhook',
  severities: ['critical'],
  events: ['raise'],
  url: 'https://chat.plant.example/hook',
  secretSet: true,
  timeoutMs: 5000,
  recipients: [],
  enabled: true,
  createdAt: '2026-11-24T00:00:00.000Z',
  updatedAt: '2026-11-24T00:00:00.000Z',
};

let calls: FetchCall[];
beforeEach(() => {
  useSession.setState({ token: null, refreshToken: null, roles: ['admin'], routes: [] });
  calls = mockApi((c) => {
    if (c.path === '/api/alarm/notify/routes' && c.method === 'GET') return { body: [hook] };
    if (c.path === '/api/alarm/notify/smtp' && c.method === 'GET')
      return {
        body: { host: '', port: 587, security: 'starttls', username: '', passwordSet: false, from: '' },
      };
    if (c.path === '/api/alarm/notify/outbox')
      return {
        body: page([
          {
            id: 9,
            routeId: 4,
            alarmId: 42,
            event: 'raise',
            status: 'failed',
            attempts: 12,
            nextAttemptAt: null,
            lastError: 'HTTP 502: Bad Gateway',
            createdAt: '2026-11-24T00:00:00.000Z',
            sentAt: null,
          },
        ]),
      };
    if (c.method === 'PUT' || c.method === 'POST') return { body: hook };
    return undefined;
  });
});
afterEach(() => vi.unstubAllGlobals());

const save = (dialog: HTMLElement) =>
  fireEvent.click(within(dialog).getByRole('button', { name: /保\s?存/ }));

describe('<NotifyTab>', { timeout: 60_000 }, () => {
  it('lists the channels and the outbox with its last error', async () => {
    renderScreen(<NotifyTab />);
    const routes = await screen.findByTestId('notify-routes');
    expect(await within(routes).findByText('值班群')).toBeTruthy();
    const outbox = screen.getByTestId('notify-outbox');
    expect(await within(outbox).findByText('HTTP 502: Bad Gateway')).toBeTruthy();
    expect(within(outbox).getByText('失败')).toBeTruthy();
    expect(within(outbox).getByText('值班群')).toBeTruthy();
  });

  it('shows the SMTP server to admins only', async () => {
    useSession.setState({ roles: ['editor'], routes: ['/alarm_center/alarm_rule'] });
    renderScreen(<NotifyTab />);
    await screen.findByTestId('notify-routes');
    expect(screen.queryByTestId('notify-smtp')).toBeNull();
    expect(calls.some((c) => c.path === '/api/alarm/notify/smtp')).toBe(false);
  });

  it('editing a webhook without typing a secret keeps it (the secret is left out)', async () => {
    renderScreen(<NotifyTab />);
    const routes = await screen.findByTestId('notify-routes');
    fireEvent.click(await within(routes).findByRole('button', { name: /编辑/ }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByDisplayValue('https://chat.plant.example/hook');
    save(dialog);
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const body = calls.find((c) => c.method === 'PUT')!.body as Record<string, unknown>;
    expect(calls.find((c) => c.method === 'PUT')!.path).toBe('/api/alarm/notify/routes/4');
    expect(body).toEqual({
      name: '值班群',
      channel: 'webhook',
      severities: ['critical'],
      events: ['raise'],
      enabled: true,
      url: 'https://chat.plant.example/hook',
      timeoutMs: 5000,
    });
  });

  it('an e-mail channel needs valid recipients; a webhook URL is not sent with it', async () => {
    renderScreen(<NotifyTab />);
    fireEvent.click(await screen.findByTestId('notify-route-create'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByTestId('notify-route-name'), { target: { value: '维修邮箱' } });
    fireEvent.click(within(dialog).getByText('邮件'));
    save(dialog);
    expect(await within(dialog).findByText('请输入至少一个收件人', {}, { timeout: 5000 })).toBeTruthy();
    const tags = within(dialog).getByRole('combobox');
    fireEvent.change(tags, { target: { value: 'not-an-address' } });
    fireEvent.keyDown(tags, { key: 'Enter', code: 'Enter' });
    save(dialog);
    expect(
      await within(dialog).findByText('“not-an-address”不是有效的邮箱地址', {}, { timeout: 5000 }),
    ).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(tags, { target: { value: 'maint@plant.example' } });
    fireEvent.keyDown(tags, { key: 'Enter', code: 'Enter' });
    fireEvent.click(
      within(dialog).getByText('not-an-address').parentElement!.querySelector('.anticon-close')!,
    );
    save(dialog);
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({
      name: '维修邮箱',
      channel: 'email',
      severities: ['critical', 'major', 'minor', 'warning'],
      events: ['raise'],
      enabled: true,
      recipients: ['maint@plant.example'],
    });
  });
});
