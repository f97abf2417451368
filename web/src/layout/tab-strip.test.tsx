import { act, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import '../lib/i18n.ts';
import { useUi } from '../lib/ui-store.ts';
import { TabStrip } from './TabStrip.tsx';

const VIEWS = [
  { path: '/home', fullPath: '/home', titleKey: 'route.home' },
  { path: '/analysis/tariff', fullPath: '/analysis/tariff', titleKey: 'route.tariff' },
  { path: '/sys_management/user', fullPath: '/sys_management/user', titleKey: 'route.user' },
];

function Where() {
  return <output data-testid="where">{useLocation().pathname}</output>;
}

afterEach(() => {
  useUi.setState({ visitedViews: [] });
  delete (Element.prototype as { scrollIntoView?: unknown }).scrollIntoView;
});

describe('<TabStrip> with more tabs than fit', () => {
  it('scrolls the active tab into view and lists every open view in a menu', async () => {
    // jsdom lays nothing out and has no scrollIntoView: record whom the strip asks to show.
    const scrolled: Element[] = [];
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this);
    };
    useUi.setState({ visitedViews: VIEWS });
    render(
      <MemoryRouter initialEntries={['/sys_management/user']}>
        <TabStrip />
        <Where />
      </MemoryRouter>,
    );
    const active = screen.getAllByTestId('tab').find((tab) => tab.dataset.path === '/sys_management/user');
    expect(scrolled).toContain(active);

    fireEvent.click(screen.getByTestId('tab-all'));
    const item = await screen.findByRole('menuitem', { name: '电价方案' });
    await act(async () => fireEvent.click(item));
    expect(screen.getByTestId('where').textContent).toBe('/analysis/tariff');
    const now = screen.getAllByTestId('tab').find((tab) => tab.dataset.path === '/analysis/tariff');
    expect(scrolled.at(-1)).toBe(now);
  });

  it('brings the active tab back into view when the strip gets narrower', () => {
    // Issue 21: at 390 px (or once the arrows appeared) the active tab sat off the strip's edge.
    const scrolled: Element[] = [];
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this);
    };
    const resized: (() => void)[] = [];
    const Original = globalThis.ResizeObserver;
    globalThis.ResizeObserver = class {
      constructor(callback: () => void) {
        resized.push(callback);
      }
      observe() {}
      unobserve() {}
      disconnect() {}
    } as unknown as typeof ResizeObserver;
    try {
      useUi.setState({ visitedViews: VIEWS });
      render(
        <MemoryRouter initialEntries={['/analysis/tariff']}>
          <TabStrip />
        </MemoryRouter>,
      );
      scrolled.length = 0;
      act(() => {
        for (const callback of resized) callback();
      });
      const active = screen.getAllByTestId('tab').find((tab) => tab.dataset.path === '/analysis/tariff');
      expect(scrolled).toEqual([active]);
    } finally {
      globalThis.ResizeObserver = Original;
    }
  });
});
