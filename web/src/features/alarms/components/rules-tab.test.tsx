import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../../lib/i18n.ts';
import { useSession } from '../../../lib/session.ts';
import { mockApi, page, renderScreen } from '../../../testing/render-with-api.tsx';
import { alarmRule } from '../testing.ts';
import { RulesTab } from './RulesTab.tsx';

const rule = alarmRule();

beforeEach(() => {
  useSession.setState({ token: null, refreshToken: null, roles: ['admin'], routes: [] });
  mockApi((c) => {
    if (c.path === '/api/alarm/rules') return { body: page([rule]) };
    if (c.path === '/api/alarm/templates') return { body: page([]) };
    return undefined;
  });
});
afterEach(() => vi.unstubAllGlobals());

describe('<RulesTab>', { timeout: 30_000 }, () => {
  it('names its row actions to screen readers and writes no words in the fixed actions column', async () => {
    renderScreen(<RulesTab />);
    const row = (await screen.findByText('油温过高')).closest('tr')!;
    const cells = within(row);
    for (const name of ['编辑', '应用到监控对象', '删除'])
      expect(cells.getByRole('button', { name })).toBeTruthy();
    // Worded actions made the fixed columns wide enough, in Spanish at 1366 px, to cover the
    // watched-devices column: the actions cell holds icons only.
    const actions = cells.getByRole('button', { name: '删除' }).closest('td')!;
    expect(actions.textContent?.trim()).toBe('');
  });
});
