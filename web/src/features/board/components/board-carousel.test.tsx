import type { BoardPage } from '@kilowatch/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, renderHook, screen } from '@testing-library/react';
import { App as AntApp } from 'antd';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { keys } from '../../../api/keys.ts';
import '../../../lib/i18n.ts';
import { mockApi } from '../../../testing/render-with-api.tsx';
import { useCarousel } from '../hooks/use-carousel.ts';
import { BoardCarousel, fitRowHeight, HOVER_IDLE_MS } from './BoardCarousel.tsx';

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
  share: 0,
  components: 0,
  updatedAt: 0,
  ...over,
});

const advance = (ms: number) => act(() => void vi.advanceTimersByTime(ms));

beforeEach(() => {
  vi.useFakeTimers({
    now: 1_700_000_000_000,
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('useCarousel', () => {
  const slots = [
    { id: 1, seconds: 10 },
    { id: 2, seconds: 5 },
  ];

  it('shows each slot for its seconds, in a loop', () => {
    const { result } = renderHook(() => useCarousel(slots, false));
    expect(result.current.slot?.id).toBe(1);
    advance(9_999);
    expect(result.current.slot?.id).toBe(1);
    advance(1);
    expect(result.current.slot?.id).toBe(2);
    advance(4_999);
    expect(result.current.slot?.id).toBe(2);
    advance(1);
    expect(result.current.slot?.id).toBe(1);
    expect(result.current.index).toBe(0);
  });

  it('stops the clock while paused and resumes with the time that was left', () => {
    const { result, rerender } = renderHook(({ paused }) => useCarousel(slots, paused), {
      initialProps: { paused: false },
    });
    advance(4_000);
    rerender({ paused: true });
    advance(60_000);
    expect(result.current.slot?.id).toBe(1);
    rerender({ paused: false });
    advance(5_999);
    expect(result.current.slot?.id).toBe(1);
    advance(1);
    expect(result.current.slot?.id).toBe(2);
  });

  it('keeps the time of the page on screen when the slots are edited, and moves on when it goes', () => {
    const { result, rerender } = renderHook(({ list }) => useCarousel(list, false), {
      initialProps: { list: slots },
    });
    advance(6_000);
    // Page 2 got a longer interval: page 1 on screen keeps its remaining 4 s.
    rerender({ list: [slots[0]!, { id: 2, seconds: 20 }] });
    advance(3_999);
    expect(result.current.slot?.id).toBe(1);
    advance(1);
    expect(result.current.slot?.id).toBe(2);
    // Page 2 is disabled while shown: the next page starts afresh at once.
    rerender({ list: [slots[0]!, { id: 3, seconds: 7 }] });
    expect(result.current.slot?.id).toBe(3);
    advance(6_999);
    expect(result.current.slot?.id).toBe(3);
    advance(1);
    expect(result.current.slot?.id).toBe(1);
  });

  it('steps by hand, both ways', () => {
    const { result } = renderHook(() => useCarousel(slots, false));
    act(() => result.current.previous());
    expect(result.current.slot?.id).toBe(2);
    act(() => result.current.next());
    expect(result.current.slot?.id).toBe(1);
    // A step by hand gives the page its whole interval.
    advance(9_999);
    expect(result.current.slot?.id).toBe(1);
  });
});

describe('<BoardCarousel>', () => {
  const pages = [
    page({ id: 1, name: '一车间', weight: 1, interval: 5 }),
    page({ id: 2, name: '空压站', weight: 2, interval: 5 }),
    page({ id: 3, name: '停用', weight: 9, interval: 5, enabled: false }),
  ];

  const renderCarousel = () => {
    mockApi((c) => {
      if (c.path === '/api/board/pages') return { body: pages };
      if (c.path.startsWith('/api/board/pages/')) return { body: [] };
      return undefined;
    });
    const client = new QueryClient({
      defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } },
    });
    client.setQueryData(keys.board.pages(), pages);
    for (const p of pages) client.setQueryData(keys.board.components(p.id), []);
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>
        <AntApp>{children}</AntApp>
      </QueryClientProvider>
    );
    const onExit = vi.fn();
    render(<BoardCarousel onExit={onExit} />, { wrapper });
    return { board: screen.getByTestId('board-carousel'), onExit };
  };

  it('rotates the enabled pages by weight (heaviest first, spread out), each for its interval', () => {
    const { board } = renderCarousel();
    const shown: string[] = [board.dataset.page ?? ''];
    for (let i = 0; i < 4; i++) {
      advance(5_000);
      shown.push(board.dataset.page ?? '');
    }
    // Weights 2 and 1: 空压站, 一车间, 空压站, then again; the disabled page never shows.
    expect(shown).toEqual(['2', '1', '2', '2', '1']);
  });

  it('pauses while the pointer is over the page and goes on when it leaves', () => {
    const { board } = renderCarousel();
    const content = screen.getByTestId('board-content');
    advance(2_000);
    fireEvent.mouseMove(content);
    expect(board.dataset.paused).toBe('true');
    expect(screen.getByTestId('board-paused')).toBeTruthy();
    advance(20_000);
    fireEvent.mouseMove(content);
    advance(20_000);
    expect(board.dataset.page).toBe('2');
    fireEvent.mouseLeave(content);
    expect(screen.queryByTestId('board-paused')).toBeNull();
    advance(2_999);
    expect(board.dataset.page).toBe('2');
    advance(1);
    expect(board.dataset.page).toBe('1');
  });

  it('goes on by itself when a pointer rests on the board (a mouse forgotten on a TV)', () => {
    const { board } = renderCarousel();
    fireEvent.mouseMove(screen.getByTestId('board-content'));
    advance(HOVER_IDLE_MS - 1);
    expect(board.dataset.paused).toBe('true');
    advance(1);
    expect(board.dataset.paused).toBe('false');
    advance(5_000);
    expect(board.dataset.page).toBe('1');
  });

  it('leaves on Escape and steps with the arrow keys', () => {
    const { board, onExit } = renderCarousel();
    fireEvent.keyDown(window, { key: 'ArrowRight' });
    expect(board.dataset.page).toBe('1');
    fireEvent.keyDown(window, { key: 'ArrowLeft' });
    expect(board.dataset.page).toBe('2');
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(onExit).toHaveBeenCalledOnce();
  });
});

describe('fitRowHeight', () => {
  it("fits a page's rows into the screen's height", () => {
    // 1080 − 56 header − 32 padding − 11 gaps of 12 = 860 over 12 rows.
    expect(fitRowHeight(12, 1080)).toBe(71);
    expect(fitRowHeight(200, 1080)).toBe(24);
    expect(fitRowHeight(0, 1080)).toBe(40);
  });
});
