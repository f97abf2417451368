import { LOGO_MAX_BYTES, type SysConfig } from '@kilowatch/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../../lib/i18n.ts';
import { useSession } from '../../../lib/session.ts';
import { mockApi, page, recordToasts, renderScreen } from '../../../testing/render-with-api.tsx';
import { LogoForm } from './LogoForm.tsx';

const systemSetting: SysConfig = {
  id: 7,
  identifier: 'systemSetting',
  name: '系统设置',
  value: '{"img":"","show":true}',
  description: '',
  updatedAt: '2026-01-01T00:00:00Z',
};

const choose = (file: File) => {
  const input = document.querySelector('input[type="file"]') as HTMLInputElement;
  fireEvent.change(input, { target: { files: [file] } });
};

beforeEach(() => useSession.setState({ token: null, refreshToken: null, logo: { img: '', show: true } }));
afterEach(() => vi.unstubAllGlobals());

describe('<LogoForm>', { timeout: 20_000 }, () => {
  it('refuses a file of the wrong type with the message', async () => {
    mockApi((c) => (c.path === '/api/sysconfigs' ? { body: page([systemSetting]) } : undefined));
    renderScreen(<LogoForm />);
    choose(new File(['GIF89a'], 'logo.gif', { type: 'image/gif' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      '仅支持 PNG、JPEG、SVG、WebP 格式的图片',
    );
  });

  it('refuses a file larger than LOGO_MAX_BYTES with the message', async () => {
    mockApi((c) => (c.path === '/api/sysconfigs' ? { body: page([systemSetting]) } : undefined));
    renderScreen(<LogoForm />);
    choose(new File([new Uint8Array(LOGO_MAX_BYTES + 1)], 'big.png', { type: 'image/png' }));
    expect((await screen.findByRole('alert')).textContent).toContain('图片大小不能超过 256 KB');
  });

  it('previews a good file, saves {img, show} into systemSetting and updates the sidebar store', async () => {
    const calls = mockApi((c) => {
      if (c.path === '/api/sysconfigs' && c.method === 'GET') return { body: page([systemSetting]) };
      if (c.path === '/api/sysconfigs/7' && c.method === 'PUT') return { body: systemSetting };
      return undefined;
    });
    const toasts = recordToasts();
    renderScreen(<LogoForm />);
    choose(new File(['<svg xmlns="http://www.w3.org/2000/svg"/>'], 'logo.svg', { type: 'image/svg+xml' }));
    await waitFor(() =>
      expect(screen.getByTestId('logo-preview').getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/),
    );
    fireEvent.click(screen.getByRole('switch'));
    await waitFor(() => expect(screen.getByTestId('logo-save').hasAttribute('disabled')).toBe(false));
    fireEvent.click(screen.getByTestId('logo-save'));

    await waitFor(() => expect(toasts).toContainEqual({ kind: 'success', text: '修改成功' }));
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.path).toBe('/api/sysconfigs/7');
    const body = put.body as { identifier: string; value: string };
    expect(body.identifier).toBe('systemSetting');
    const value = JSON.parse(body.value) as { img: string; show: boolean };
    expect(value.show).toBe(false);
    expect(value.img).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(useSession.getState().logo).toEqual(value);
  });

  it('creates systemSetting with POST when it does not exist', async () => {
    const calls = mockApi((c) => {
      if (c.path === '/api/sysconfigs' && c.method === 'GET') return { body: page([]) };
      if (c.path === '/api/sysconfigs' && c.method === 'POST') return { body: systemSetting };
      return undefined;
    });
    recordToasts();
    renderScreen(<LogoForm />);
    await waitFor(() => expect(screen.getByTestId('logo-save').hasAttribute('disabled')).toBe(false));
    fireEvent.click(screen.getByTestId('logo-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.body).toMatchObject({
      identifier: 'systemSetting',
      value: '{"img":"","show":true}',
    });
  });
});
