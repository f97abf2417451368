import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../../lib/i18n.ts';
import { type FetchCall, mockApi, page, renderScreen } from '../../../testing/render-with-api.tsx';
import { WebhookHostsForm } from './WebhookHostsForm.tsx';

afterEach(() => vi.unstubAllGlobals());

describe('<WebhookHostsForm>', { timeout: 20_000 }, () => {
  it('creates the allowed internal hosts setting, then changes it in place', async () => {
    let saved: { id: number; identifier: string; name: string; value: string } | null = null;
    const calls: FetchCall[] = mockApi((c) => {
      if (c.path === '/api/sysconfigs' && c.method === 'GET') return { body: page(saved ? [saved] : []) };
      if (c.method === 'POST' || c.method === 'PUT') {
        saved = { id: 3, ...(c.body as { identifier: string; name: string; value: string }) };
        return { body: { ...saved, description: '', updatedAt: '2026-01-01T00:00:00Z' } };
      }
      return undefined;
    });
    renderScreen(<WebhookHostsForm />);
    expect(await screen.findByText('告警网络回调可访问的内部主机')).toBeTruthy();
    const field = screen.getByTestId('webhook-hosts');
    fireEvent.change(field, { target: { value: ' scada.plant.local\n10.20.0.0/16 ' } });
    fireEvent.click(screen.getByTestId('webhook-hosts-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({
      identifier: 'webhookAllowedHosts',
      name: '网络回调内部主机',
      value: 'scada.plant.local\n10.20.0.0/16',
      description: '',
    });
    await waitFor(() => expect((field as HTMLTextAreaElement).value).toBe('scada.plant.local\n10.20.0.0/16'));
    fireEvent.change(field, { target: { value: '127.0.0.1' } });
    fireEvent.click(screen.getByTestId('webhook-hosts-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')!.path).toBe('/api/sysconfigs/3');
  });
});
