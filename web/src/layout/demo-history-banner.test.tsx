import type { DemoHistoryStatus } from '@kilowatch/contract';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../lib/i18n.ts';
import { keys } from '../api/keys.ts';
import { mockApi, renderScreen } from '../testing/render-with-api.tsx';
import { DemoHistoryBanner } from './DemoHistoryBanner.tsx';

afterEach(() => vi.unstubAllGlobals());

const status = (state: DemoHistoryStatus['state'], percent: number): DemoHistoryStatus => ({
  state,
  percent,
  from: 0,
  to: 1,
  points: 0,
});

describe('<DemoHistoryBanner>', { timeout: 20_000 }, () => {
  it('shows how far the history is while it runs, then leaves and refreshes what is on screen', async () => {
    let answer = status('running', 42);
    mockApi((c) => (c.path === '/api/demo/history' ? { body: answer } : undefined));
    const { client } = renderScreen(<DemoHistoryBanner />);
    expect((await screen.findByTestId('demo-history-banner')).textContent).toContain('（42 %）');

    const chart = vi.fn(async () => 1);
    await client.fetchQuery({ queryKey: keys.telemetry.all, queryFn: chart });
    answer = status('done', 100);
    await client.refetchQueries({ queryKey: keys.demoHistory() });
    await waitFor(() => expect(screen.queryByTestId('demo-history-banner')).toBeNull());
    await waitFor(() => expect(client.getQueryState(keys.telemetry.all)?.isInvalidated).toBe(true));
  });

  it('shows nothing for a plant with no history to write', async () => {
    const calls = mockApi((c) => (c.path === '/api/demo/history' ? { body: status('none', 0) } : undefined));
    renderScreen(<DemoHistoryBanner />);
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(screen.queryByTestId('demo-history-banner')).toBeNull();
  });
});
