import type { BoardPage } from '@kilowatch/contract';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../../lib/i18n.ts';
import { useSession } from '../../../lib/session.ts';
import { type FetchCall, mockApi, renderScreen } from '../../../testing/render-with-api.tsx';
import { BoardScreen } from './BoardScreen.tsx';

const page = (over: Partial<BoardPage>): BoardPage => ({
  id: 1,
  name: '',
  regionId: 1,
  regionName: '一车间',
  successor: true,
  categoryId: null,
  interval: 10,
  weight: 1,
  enabled: true,
  share: 0.5,
  components: 0,
  updatedAt: 0,
  ...over,
});

afterEach(() => vi.unstubAllGlobals());

describe('<BoardScreen>', { timeout: 60_000 }, () => {
  it('shows the no-pages state with a way to add one', async () => {
    useSession.setState({ roles: ['admin'], routes: [] });
    mockApi((c) => (c.path === '/api/board/pages' ? { body: [] } : undefined));
    renderScreen(<BoardScreen />, '/workshopBoard');
    const empty = await screen.findByTestId('board-no-pages', {}, { timeout: 8000 });
    expect(empty.textContent).toContain('还没有看板页面');
    expect(within(empty).getByRole('button', { name: /新建页面/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: /轮播/ })).toHaveProperty('disabled', true);
  });

  it("sets a page's weight in the list with PATCH …/weight and shows the page's empty grid", async () => {
    useSession.setState({ roles: ['editor'], routes: ['/workshopBoard'] });
    const pages = [
      page({ id: 1, name: '一车间', components: 0 }),
      page({ id: 2, name: '空压站', components: 3 }),
    ];
    const calls: FetchCall[] = mockApi((c) => {
      if (c.path === '/api/board/pages') return { body: pages };
      if (c.path === '/api/board/pages/1/components') return { body: [] };
      if (c.path === '/api/board/pages/2/weight') {
        return { body: [page({ ...pages[1], weight: 3, share: 0.75 }), page({ ...pages[0], share: 0.25 })] };
      }
      return undefined;
    });
    renderScreen(<BoardScreen />, '/workshopBoard');
    expect(await screen.findByTestId('board-no-components', {}, { timeout: 8000 })).toBeTruthy();
    const weight = screen.getByRole('spinbutton', { name: '“空压站”的权重' });
    fireEvent.change(weight, { target: { value: '3' } });
    await vi.waitFor(() => expect(calls.some((c) => c.path === '/api/board/pages/2/weight')).toBe(true), {
      timeout: 5_000,
    });
    expect(calls.find((c) => c.path === '/api/board/pages/2/weight')).toMatchObject({
      method: 'PATCH',
      body: { weight: 3 },
    });
    // The answer is the new order: 空压站 first with 75 %.
    await vi.waitFor(() => expect(screen.getAllByRole('row')[1]?.textContent).toContain('75%'), {
      timeout: 5_000,
    });
  });

  it('asks before deleting a page, naming its components; readers get no tools', async () => {
    useSession.setState({ roles: ['admin'], routes: [] });
    const calls = mockApi((c) => {
      if (c.path === '/api/board/pages') return { body: [page({ id: 2, name: '空压站', components: 3 })] };
      if (c.path === '/api/board/pages/2/components') return { body: [] };
      if (c.method === 'DELETE') return { body: { ok: true } };
      return undefined;
    });
    const { unmount } = renderScreen(<BoardScreen />, '/workshopBoard');
    fireEvent.click(await screen.findByRole('button', { name: '删除“空压站”' }, { timeout: 8000 }));
    expect(await screen.findByText('删除页面“空压站”及其 3 个组件？')).toBeTruthy();
    fireEvent.click(screen.getByTestId('confirm-delete-ok'));
    await vi.waitFor(
      () => expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/board/pages/2')).toBe(true),
      { timeout: 5_000 },
    );
    unmount();

    useSession.setState({ roles: ['editor'], routes: [] });
    renderScreen(<BoardScreen />, '/workshopBoard');
    expect(await screen.findByTestId('board-page-2', {}, { timeout: 8000 })).toBeTruthy();
    expect(screen.queryByRole('button', { name: '删除“空压站”' })).toBeNull();
    expect(screen.queryByRole('spinbutton')).toBeNull();
    expect(screen.queryByRole('button', { name: /新建页面/ })).toBeNull();
  });
});
