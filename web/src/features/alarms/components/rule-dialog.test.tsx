import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../../lib/i18n.ts';
import { useSession } from '../../../lib/session.ts';
import { type FetchCall, mockApi, page, renderScreen } from '../../../testing/render-with-api.tsx';
import { conditionText } from '../lib/condition-text.ts';
import { alarmRule } from '../testing.ts';
import { RuleDialog } from './RuleDialog.tsx';

const rule = alarmRule({
  id: 3,
  name: '排气温度过高',
  ability: 'temp',
  condition: { kind: 'threshold', op: '>', value: 90 },
  onDelay: 10,
  enabled: false,
  things: 0,
});

let calls: FetchCall[];
beforeEach(() => {
  useSession.setState({ token: null, refreshToken: null, roles: ['admin'], routes: [] });
  calls = mockApi((c) => {
    if (c.path === '/api/thing/categories') return { body: page([{ id: 1, name: '空压机' }]) };
    if (c.path === '/api/thing/categories/1/abilities')
      return { body: [{ id: 1, categoryId: 1, identifier: 'temp', name: '排气温度', dataType: 'number' }] };
    if (c.path === '/api/alarm/templates') return { body: page([]) };
    if (c.method === 'PUT' || c.method === 'POST') return { body: rule };
    return undefined;
  });
});
afterEach(() => vi.unstubAllGlobals());

const ok = (dialog: HTMLElement) => fireEvent.click(within(dialog).getByRole('button', { name: /确\s?定/ }));

describe('<RuleDialog>', { timeout: 30_000 }, () => {
  it('a new rule without name, category and ability is refused with messages, nothing sent', async () => {
    renderScreen(<RuleDialog open rule={null} onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog');
    ok(dialog);
    await waitFor(() => expect(within(dialog).getAllByText('此项必填').length).toBeGreaterThanOrEqual(4));
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('a range needs low below high; the valid range is saved as its condition', async () => {
    const onClose = vi.fn();
    renderScreen(<RuleDialog open rule={rule} onClose={onClose} />);
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByDisplayValue('排气温度过高');
    fireEvent.click(within(dialog).getByText('区间'));
    fireEvent.change(await within(dialog).findByTestId('rule-low'), { target: { value: '20' } });
    fireEvent.change(within(dialog).getByTestId('rule-high'), { target: { value: '10' } });
    ok(dialog);
    expect(await within(dialog).findByText('下限必须小于上限')).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    fireEvent.change(within(dialog).getByTestId('rule-high'), { target: { value: '30' } });
    ok(dialog);
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({
      path: '/api/alarm/rules/3',
      body: {
        name: '排气温度过高',
        ability: 'temp',
        categoryId: 1,
        condition: { kind: 'range', inside: false, low: 20, high: 30 },
        onDelay: 10,
        offDelay: 0,
        deadband: 1,
        severity: 'major',
        templateId: null,
      },
    });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('a state condition needs at least one value', async () => {
    renderScreen(<RuleDialog open rule={rule} onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByDisplayValue('排气温度过高');
    fireEvent.click(within(dialog).getByText('状态值'));
    await within(dialog).findByText('告警状态值');
    ok(dialog);
    expect(await within(dialog).findByText('请至少填写一个状态值')).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });
});

describe('conditionText', () => {
  const t = (key: string, o?: Record<string, unknown>) => `${key}${JSON.stringify(o ?? {})}`;
  it('writes each kind briefly', () => {
    expect(conditionText({ kind: 'threshold', op: '!=', value: 3 }, t)).toBe('≠ 3');
    expect(conditionText({ kind: 'noData', seconds: 300 }, t)).toBe('alarms.text.noData{"seconds":300}');
  });

  it("says the ability's unit and names its states (issue 21: '> 105', '状态为 1')", () => {
    expect(conditionText({ kind: 'threshold', op: '>', value: 105 }, t, { unit: '℃' })).toBe('> 105 ℃');
    const states = { enumOptions: [{ value: '1', label: '故障' }] };
    expect(conditionText({ kind: 'state', values: ['1', '3'] }, t, states)).toBe(
      'alarms.text.state{"values":"故障, 3"}',
    );
  });
});
