import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../../lib/i18n.ts';
import { useSession } from '../../../lib/session.ts';
import { type FetchCall, mockApi, page, renderScreen } from '../../../testing/render-with-api.tsx';
import { alarmRule } from '../testing.ts';
import { RuleNextSteps } from './RuleNextSteps.tsx';

const created = alarmRule({ enabled: false, things: 0 });

let calls: FetchCall[];
beforeEach(() => {
  useSession.setState({ token: null, refreshToken: null, roles: ['admin'], routes: [] });
  calls = mockApi((c) => {
    if (c.path === '/api/alarm/rules' || c.path === '/api/alarm/templates') return { body: page([]) };
    if (c.path === '/api/alarm/rules/7/state') return { body: { ...created, enabled: true, things: 1 } };
    return undefined;
  });
});
afterEach(() => vi.unstubAllGlobals());

describe('<RuleNextSteps>', { timeout: 30_000 }, () => {
  it('after create, guides to apply (a new rule watches nothing) and says it is inert until then', async () => {
    renderScreen(<RuleNextSteps rule={created} onClose={() => {}} />);
    expect(await screen.findByText('规则“油温过高”已创建：还差两步')).toBeTruthy();
    expect(screen.getByTestId('rule-guide-apply')).toBeTruthy();
    expect(screen.queryByTestId('rule-guide-enable')).toBeNull();
    expect(screen.getByText('未应用且未启用的规则不会产生任何告警。')).toBeTruthy();
    fireEvent.click(screen.getByTestId('rule-guide-apply'));
    expect(await screen.findByText('将“油温过高”应用到监控对象')).toBeTruthy();
  });

  it('once applied, enables the rule from the guide', async () => {
    const onClose = vi.fn();
    renderScreen(<RuleNextSteps rule={{ ...created, things: 3 }} onClose={onClose} />);
    fireEvent.click(await screen.findByTestId('rule-guide-enable'));
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/api/alarm/rules/7/state')?.body).toEqual({ action: 'enable' }),
    );
    expect(await screen.findByText(/^完\s?成$/)).toBeTruthy();
  });
});
