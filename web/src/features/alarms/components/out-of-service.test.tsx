import type { AlarmDetail } from '@kilowatch/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../../lib/i18n.ts';
import { useSession } from '../../../lib/session.ts';
import { type FetchCall, mockApi, recordToasts, renderScreen } from '../../../testing/render-with-api.tsx';
import { AlarmHistoryScreen } from './AlarmHistoryScreen.tsx';

const alarm: AlarmDetail = {
  id: 5,
  ruleId: 2,
  ruleName: '排气温度过高',
  templateName: '',
  resourceType: 'thing',
  resourceId: 7,
  resourceName: '1号空压机',
  thingId: 7,
  thingName: '1号空压机',
  ability: 'temp',
  severity: 'critical',
  message: '',
  value: '95',
  alarmAt: '2026-11-23T08:00:00.000Z',
  returnedAt: null,
  state: 1,
  shelvedUntil: null,
  chattering: false,
  occurrences: 1,
  actions: [],
};

const entry = {
  id: 3,
  ruleId: 2,
  thingId: 7,
  monitorId: null,
  name: '排气温度过高 · 1号空压机',
  reason: '更换传感器',
  username: 'admin',
  createdAt: '2026-11-23T09:00:00.000Z',
};

let calls: FetchCall[];
function api(out: boolean) {
  calls = mockApi((c) => {
    if (c.path === '/api/alarm/history') return { body: { list: [], size: 0, hasNextPage: false } };
    if (c.path === '/api/alarm/history/5') return { body: alarm };
    if (c.method === 'GET' && c.path === '/api/alarm/out-of-service')
      return { body: { list: out ? [entry] : [], total: out ? 1 : 0, page: 1, pageSize: 1 } };
    if (c.method === 'POST' && c.path === '/api/alarm/out-of-service') return { body: entry };
    if (c.method === 'DELETE') return { body: { ok: true } };
    return undefined;
  });
}

beforeEach(() => useSession.setState({ token: null, refreshToken: null, roles: ['admin'], routes: [] }));
afterEach(() => vi.unstubAllGlobals());

describe('out of service on an alarm’s detail', { timeout: 30_000 }, () => {
  it('takes the rule on this thing out of service with a reason, after a confirmation', async () => {
    api(false);
    const toasts = recordToasts();
    renderScreen(<AlarmHistoryScreen />, '/alarm_center/alarm_history?id=5');
    const section = await screen.findByTestId('alarm-oos');
    const take = within(section).getByTestId('alarm-oos-take');
    expect(take).toHaveProperty('disabled', true);
    fireEvent.change(within(section).getByTestId('alarm-oos-reason'), { target: { value: ' 更换传感器 ' } });
    await waitFor(() => expect(take).toHaveProperty('disabled', false));
    fireEvent.click(take);
    // The confirmation's OK, beside the drawer's own button of the same name.
    await waitFor(() => expect(screen.getAllByRole('button', { name: '停 用' })).toHaveLength(2));
    fireEvent.click(screen.getAllByRole('button', { name: '停 用' })[1]!);
    const isTake = (c: FetchCall) => c.method === 'POST' && c.path === '/api/alarm/out-of-service';
    await waitFor(() => expect(calls.some(isTake)).toBe(true));
    expect(calls.find(isTake)).toMatchObject({
      path: '/api/alarm/out-of-service',
      body: { ruleId: 2, thingId: 7, reason: '更换传感器' },
    });
    await waitFor(() => expect(toasts).toContainEqual({ kind: 'success', text: '已停用' }));
  });

  it('shows that it is out of service, with the way back; hidden without the history grant', async () => {
    api(true);
    const { unmount } = renderScreen(<AlarmHistoryScreen />, '/alarm_center/alarm_history?id=5');
    const section = await screen.findByTestId('alarm-oos');
    await within(section).findByText(/原因：更换传感器（admin，/);
    fireEvent.click(within(section).getByTestId('alarm-oos-return'));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'DELETE')).toMatchObject({ path: '/api/alarm/out-of-service/3' }),
    );
    unmount();
    useSession.setState({ roles: ['editor'], routes: [] });
    renderScreen(<AlarmHistoryScreen />, '/alarm_center/alarm_history?id=5');
    await screen.findByTestId('alarm-acknowledge');
    expect(screen.queryByTestId('alarm-oos')).toBeNull();
  });
});
