import type { AlarmDetail, AlarmHistoryItem } from '@kilowatch/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../../lib/i18n.ts';
import i18n from '../../../lib/i18n.ts';
import { useSession } from '../../../lib/session.ts';
import { type FetchCall, mockApi, recordToasts, renderScreen } from '../../../testing/render-with-api.tsx';
import { AlarmHistoryScreen, historySheet } from './AlarmHistoryScreen.tsx';

const item = (id: number, state: number, over: Partial<AlarmHistoryItem> = {}): AlarmHistoryItem => ({
  id,
  ruleId: 2,
  ruleName: '排气温度过高',
  templateName: '空压机模板',
  resourceType: 'region',
  resourceId: 1,
  resourceName: '一号厂区',
  thingId: 7,
  thingName: '1号空压机',
  ability: 'temp',
  abilityName: '排气温度',
  unit: '°C',
  severity: 'critical',
  message: '温度 95 °C',
  value: '95',
  alarmAt: '2026-11-23T08:00:00.000Z',
  returnedAt: null,
  state,
  shelvedUntil: null,
  chattering: false,
  occurrences: 1,
  ...over,
});

const detail = (state: number, over: Partial<AlarmDetail> = {}): AlarmDetail => ({
  ...item(5, state),
  actions: [],
  ...over,
});

let calls: FetchCall[];
function api(extra: (c: FetchCall) => { status?: number; body?: unknown } | undefined = () => undefined) {
  calls = mockApi((c) => {
    const answered = extra(c);
    if (answered) return answered;
    if (c.path === '/api/alarm/history')
      return {
        body: {
          list: [item(5, 1), item(4, 2), item(3, 3), item(2, 4), item(1, 5, { severity: 'warning' })],
          size: 5,
          hasNextPage: false,
        },
      };
    if (c.method === 'GET' && c.path === '/api/alarm/history/5') return { body: detail(1) };
    return undefined;
  });
}

beforeEach(() => useSession.setState({ token: null, refreshToken: null, roles: ['admin'], routes: [] }));
afterEach(() => vi.unstubAllGlobals());

describe('<AlarmHistoryScreen>', { timeout: 30_000 }, () => {
  it('asks page 1 of 10 and shows state and severity as labelled tags', async () => {
    api();
    renderScreen(<AlarmHistoryScreen />, '/alarm_center/alarm_history');
    const table = await screen.findByRole('table');
    await within(table).findByText('未确认');
    for (const label of ['已确认', '已恢复未确认', '正常', '已搁置', '紧急', '提示'])
      expect(within(table).getAllByText(label).length).toBeGreaterThan(0);
    const q = calls.find((c) => c.path === '/api/alarm/history')!.query;
    expect([q.get('page'), q.get('pageSize')]).toEqual(['1', '10']);
  });

  it('sends the filters of the address: name, template, id, rule, state, severity', async () => {
    api();
    renderScreen(
      <AlarmHistoryScreen />,
      '/alarm_center/alarm_history?name=压机&templateName=模板&alarmId=9&ruleId=2&state=3&severity=major&page=2',
    );
    await screen.findByRole('table');
    const q = calls.find((c) => c.path === '/api/alarm/history')!.query;
    expect(Object.fromEntries(q)).toEqual({
      page: '2',
      pageSize: '10',
      name: '压机',
      templateName: '模板',
      id: '9',
      ruleId: '2',
      state: '3',
      severity: 'major',
    });
  });

  it('shows the empty state', async () => {
    api((c) =>
      c.path === '/api/alarm/history' ? { body: { list: [], size: 0, hasNextPage: false } } : undefined,
    );
    renderScreen(<AlarmHistoryScreen />);
    expect(await screen.findByText('没有符合条件的告警')).toBeTruthy();
  });

  it('?id= opens the alarm; acknowledging with a comment posts it and asks the alarms again', async () => {
    // The drawer's chart asks /api/query/data too: the action is the POST to …/actions.
    const isAction = (c: FetchCall) => c.method === 'POST' && c.path.endsWith('/actions');
    api((c) => (isAction(c) ? { body: detail(2) } : undefined));
    const toasts = recordToasts();
    const lists = () => calls.filter((c) => c.method === 'GET' && c.path === '/api/alarm/history').length;
    renderScreen(<AlarmHistoryScreen />, '/alarm_center/alarm_history?id=5');
    const drawer = await screen.findByTestId('alarm-detail');
    await within(drawer).findByText('温度 95 °C');
    fireEvent.change(within(drawer).getByTestId('alarm-comment'), { target: { value: ' 已到现场 ' } });
    await waitFor(() => expect(lists()).toBeGreaterThan(0));
    const before = lists();
    fireEvent.click(within(drawer).getByTestId('alarm-acknowledge'));
    await waitFor(() => expect(calls.some(isAction)).toBe(true));
    expect(calls.find(isAction)).toMatchObject({
      path: '/api/alarm/history/5/actions',
      body: { action: 'acknowledge', comment: '已到现场' },
    });
    // The one signal of the change: the alarms' queries (the list here, the bell in the top bar) refetch.
    await waitFor(() => expect(lists()).toBeGreaterThan(before));
    await waitFor(() => expect(toasts).toContainEqual({ kind: 'success', text: '告警已确认' }));
  });

  it('close shows only with the alarm_history grant or admin', async () => {
    useSession.setState({ roles: ['editor'], routes: ['/alarm_center/alarm_rule'] });
    api();
    const { unmount } = renderScreen(<AlarmHistoryScreen />, '/alarm_center/alarm_history?id=5');
    const drawer = await screen.findByTestId('alarm-detail');
    await within(drawer).findByTestId('alarm-acknowledge');
    expect(within(drawer).queryByRole('button', { name: /关闭告警/ })).toBeNull();
    unmount();
    useSession.setState({ roles: ['editor'], routes: ['/alarm_center/alarm_history'] });
    renderScreen(<AlarmHistoryScreen />, '/alarm_center/alarm_history?id=5');
    expect(await screen.findByRole('button', { name: /关闭告警/ })).toBeTruthy();
  });

  it("a refused action shows the server's message", async () => {
    api((c) =>
      c.method === 'POST' && c.path.endsWith('/actions')
        ? { status: 409, body: { code: 'CONFLICT', message: '该告警已确认' } }
        : undefined,
    );
    const toasts = recordToasts();
    renderScreen(<AlarmHistoryScreen />, '/alarm_center/alarm_history?id=5');
    const drawer = await screen.findByTestId('alarm-detail');
    fireEvent.click(await within(drawer).findByTestId('alarm-acknowledge'));
    await waitFor(() => expect(toasts).toContainEqual({ kind: 'error', text: '该告警已确认' }));
  });
});

describe('historySheet', () => {
  it('writes the filtered alarms with labels in the language and times as instants', () => {
    const sheet = historySheet([item(5, 3)], (k, o) => i18n.t(k, o));
    expect(sheet.columns.map((c) => c.kind)).toEqual([
      'number',
      'text',
      'text',
      'text',
      'text',
      'text',
      'text',
      'text',
      'text',
      'time',
      'time',
    ]);
    expect(sheet.rows[0]).toEqual([
      5,
      '区域 · 一号厂区',
      '1号空压机',
      '排气温度过高',
      '空压机模板',
      '紧急',
      '已恢复未确认',
      '排气温度 95 °C',
      '温度 95 °C',
      Date.parse('2026-11-23T08:00:00.000Z'),
      null,
    ]);
  });
});
