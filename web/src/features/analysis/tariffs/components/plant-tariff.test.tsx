import type { Tariff } from '@kilowatch/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../../../lib/i18n.ts';
import { useSession } from '../../../../lib/session.ts';
import { mockApi, recordToasts, renderScreen } from '../../../../testing/render-with-api.tsx';
import { TariffScreen } from './TariffScreen.tsx';

const tariff = (id: number, name: string): Tariff => ({
  id,
  name,
  description: '',
  holidays: [],
  workdays: [],
  weekendDays: [6, 7],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  versions: [
    {
      id,
      tariffId: id,
      validFrom: '2020-01-01',
      note: '',
      prices: { flat: 0.6 },
      seasons: [
        {
          name: '全年',
          from: '01-01',
          to: '12-31',
          workday: [{ band: 'flat', from: '00:00', to: '24:00' }],
          weekend: [{ band: 'flat', from: '00:00', to: '24:00' }],
          holiday: [{ band: 'flat', from: '00:00', to: '24:00' }],
        },
      ],
      demand: { kind: 'none' },
      powerFactorTarget: null,
      createdAt: '2026-01-01T00:00:00.000Z',
    },
  ],
});

beforeEach(() => useSession.setState({ token: null, refreshToken: null, roles: ['admin'], routes: [] }));
afterEach(() => vi.unstubAllGlobals());

describe("the tariff screen's plant tariff", { timeout: 30_000 }, () => {
  it('says the plant has none, and makes the selected tariff the plant’s', async () => {
    let plant: number | null = null;
    const calls = mockApi((c) => {
      if (c.path === '/api/tariffs') return { body: [tariff(1, '一般工商业'), tariff(2, '大工业用电')] };
      if (c.path === '/api/tariffs/plant' && c.method === 'GET') return { body: { tariffId: plant } };
      if (c.path === '/api/tariffs/plant' && c.method === 'PUT') {
        plant = (c.body as { tariffId: number | null }).tariffId;
        return { body: { tariffId: plant } };
      }
      return undefined;
    });
    const toasts = recordToasts();
    renderScreen(<TariffScreen />);
    expect((await screen.findByTestId('plant-tariff-missing')).textContent).toContain('尚未选定全厂电价');

    fireEvent.click(await screen.findByText('大工业用电'));
    fireEvent.click(screen.getByTestId('plant-tariff-set'));
    await waitFor(() =>
      expect(toasts).toContainEqual({ kind: 'success', text: '“大工业用电”已设为全厂电价' }),
    );
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ tariffId: 2 });
    expect(await screen.findByTestId('plant-tariff-tag')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('plant-tariff-missing')).toBeNull());
  });

  it('opens on the plant’s tariff and marks it in the list', async () => {
    mockApi((c) => {
      if (c.path === '/api/tariffs') return { body: [tariff(1, '一般工商业'), tariff(2, '大工业用电')] };
      if (c.path === '/api/tariffs/plant') return { body: { tariffId: 2 } };
      return undefined;
    });
    renderScreen(<TariffScreen />);
    await screen.findByTestId('plant-tariff-tag');
    expect(screen.getAllByText('全厂电价')).toHaveLength(2);
    expect(screen.queryByTestId('plant-tariff-set')).toBeNull();
  });
});
