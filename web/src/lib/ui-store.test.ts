import { beforeEach, describe, expect, it, vi } from 'vitest';
import { cookieStorage } from './storage.ts';
import { isMobileWidth, nextPathAfterClosing, useUi, type VisitedView } from './ui-store.ts';

const view = (path: string, fullPath = path): VisitedView => ({ path, fullPath, titleKey: `route.${path}` });
const paths = () => useUi.getState().visitedViews.map((v) => v.fullPath);
const cookie = (name: string) =>
  document.cookie
    .split('; ')
    .find((c) => c.startsWith(`${name}=`))
    ?.slice(name.length + 1);

beforeEach(() => {
  useUi.setState({ visitedViews: [], refreshKeys: {} });
});

describe('nextPathAfterClosing', () => {
  it('goes to the last remaining tab', () => {
    expect(nextPathAfterClosing([view('/home'), view('/analysis/kpi', '/analysis/kpi?id=2')])).toBe(
      '/analysis/kpi?id=2',
    );
  });

  it('goes to / when no tab remains', () => {
    expect(nextPathAfterClosing([])).toBe('/');
  });

  it('follows closeView', () => {
    const { addView, closeView } = useUi.getState();
    addView(view('/home'));
    addView(view('/video'));
    addView(view('/region'));
    expect(nextPathAfterClosing(closeView('/region'))).toBe('/video');
    expect(paths()).toEqual(['/home', '/video']);
    closeView('/video');
    expect(nextPathAfterClosing(closeView('/home'))).toBe('/');
  });
});

describe('tabs', () => {
  it('addView keeps one tab per path', () => {
    const { addView } = useUi.getState();
    addView(view('/home'));
    addView(view('/video'));
    addView(view('/home'));
    expect(paths()).toEqual(['/home', '/video']);
  });

  it('addView replaces the full path of an existing tab in place', () => {
    const { addView } = useUi.getState();
    addView(view('/alarm_center/alarm_history'));
    addView(view('/video'));
    addView(view('/alarm_center/alarm_history', '/alarm_center/alarm_history?id=5'));
    expect(paths()).toEqual(['/alarm_center/alarm_history?id=5', '/video']);
  });

  it('addView of an identical view does not change state', () => {
    const { addView } = useUi.getState();
    addView(view('/home'));
    const before = useUi.getState().visitedViews;
    addView(view('/home'));
    expect(useUi.getState().visitedViews).toBe(before);
  });

  it('closeOthers keeps only the given tab', () => {
    const { addView, closeOthers } = useUi.getState();
    for (const p of ['/home', '/video', '/region']) addView(view(p));
    closeOthers('/video');
    expect(paths()).toEqual(['/video']);
  });

  it('closeAll removes every tab', () => {
    const { addView, closeAll } = useUi.getState();
    for (const p of ['/home', '/video']) addView(view(p));
    closeAll();
    expect(paths()).toEqual([]);
  });

  it('refreshView bumps the key of that view only', () => {
    const { refreshView } = useUi.getState();
    refreshView('/home');
    refreshView('/home');
    refreshView('/video');
    expect(useUi.getState().refreshKeys).toEqual({ '/home': 2, '/video': 1 });
  });
});

describe('preferences kept in cookies', () => {
  it('size', () => {
    useUi.getState().setSize('small');
    expect(useUi.getState().size).toBe('small');
    expect(document.cookie).toContain('size=small');
    useUi.getState().setSize('mini');
    expect(cookie('size')).toBe('mini');
  });

  it('language', () => {
    useUi.getState().setLanguage('en');
    expect(useUi.getState().language).toBe('en');
    expect(cookie('language')).toBe('en');
    useUi.getState().setLanguage('zh');
    expect(cookie('language')).toBe('zh');
  });

  it('sidebar', () => {
    useUi.setState({ sidebarOpened: true });
    useUi.getState().toggleSidebar();
    expect(useUi.getState().sidebarOpened).toBe(false);
    expect(cookie('sidebarStatus')).toBe('0');
    useUi.getState().toggleSidebar();
    expect(useUi.getState().sidebarOpened).toBe(true);
    expect(cookie('sidebarStatus')).toBe('1');
    useUi.getState().closeSidebar();
    expect(useUi.getState().sidebarOpened).toBe(false);
    expect(cookie('sidebarStatus')).toBe('0');
  });

  it('a fresh store reads them back', async () => {
    cookieStorage.set('size', 'mini');
    cookieStorage.set('language', 'es');
    cookieStorage.set('sidebarStatus', '0');
    vi.resetModules();
    const fresh = await import('./ui-store.ts');
    expect(fresh.useUi.getState()).toMatchObject({ size: 'mini', language: 'es', sidebarOpened: false });
  });

  it('a fresh store ignores unknown values', async () => {
    cookieStorage.set('size', 'huge');
    cookieStorage.set('language', 'fr');
    cookieStorage.set('sidebarStatus', '1');
    vi.resetModules();
    const fresh = await import('./ui-store.ts');
    expect(fresh.useUi.getState()).toMatchObject({ size: 'medium', language: 'zh', sidebarOpened: true });
  });
});

describe('isMobileWidth', () => {
  it('is mobile below 1024 px', () => {
    expect(isMobileWidth(1023)).toBe(true);
    expect(isMobileWidth(1024)).toBe(false);
  });
});
