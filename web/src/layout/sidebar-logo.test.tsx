import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../lib/i18n.ts';
import { loadLogo } from '../api/system.ts';
import { useSession } from '../lib/session.ts';
import { mockApi, renderScreen } from '../testing/render-with-api.tsx';
import { SidebarContent } from './Sidebar.tsx';

beforeEach(() =>
  useSession.setState({
    token: null,
    refreshToken: null,
    roles: [],
    routes: [],
    logo: { img: '', show: true },
  }),
);
afterEach(() => vi.unstubAllGlobals());

describe('logo at start', { timeout: 20_000 }, () => {
  it('loadLogo puts the public logo config into the session store, without a token', async () => {
    const calls = mockApi((c) =>
      c.path === '/api/sysconfigs/logo'
        ? { body: { img: 'data:image/png;base64,AAA', show: false } }
        : undefined,
    );
    await loadLogo();
    expect(useSession.getState().logo).toEqual({ img: 'data:image/png;base64,AAA', show: false });
    expect(calls).toHaveLength(1);
  });

  it('keeps the default when the call fails', async () => {
    mockApi(() => ({ status: 500, body: { code: 'INTERNAL', message: 'boom' } }));
    await expect(loadLogo()).rejects.toThrow();
    expect(useSession.getState().logo).toEqual({ img: '', show: true });
  });

  it('the sidebar loads it once and shows the built-in icon while img is empty', async () => {
    const calls = mockApi((c) =>
      c.path === '/api/sysconfigs/logo'
        ? { body: { img: 'data:image/png;base64,BBB', show: true } }
        : undefined,
    );
    const { rerender } = renderScreen(<SidebarContent collapsed={false} />);
    const img = () => screen.getByTestId('sidebar-logo').querySelector('img')!;
    expect(img().getAttribute('src')).toBe('./favicon.svg');
    await waitFor(() => expect(img().getAttribute('src')).toBe('data:image/png;base64,BBB'));
    rerender(<SidebarContent collapsed />);
    expect(calls.filter((c) => c.path === '/api/sysconfigs/logo')).toHaveLength(1);
  });
});
