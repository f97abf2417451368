import type { BandSpan, Tariff } from '@kilowatch/contract';
import { render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../../../lib/i18n.ts';
import { useSession } from '../../../../lib/session.ts';
import { mockApi, renderScreen } from '../../../../testing/render-with-api.tsx';
import { dayStrip, spanSegments } from '../lib/band-strip.ts';
import { BandStrip } from './BandStrip.tsx';
import { TariffScreen } from './TariffScreen.tsx';

const DAY: BandSpan[] = [
  { band: 'valley', from: '00:00', to: '08:00' },
  { band: 'flat', from: '08:00', to: '10:00' },
  { band: 'tip', from: '10:00', to: '11:00' },
  { band: 'tip', from: '11:00', to: '12:00' },
  { band: 'peak', from: '12:00', to: '18:00' },
  { band: 'valley', from: '18:00', to: '24:00' },
];
const ALL_VALLEY: BandSpan[] = [{ band: 'valley', from: '00:00', to: '24:00' }];

const tariff: Tariff = {
  id: 1,
  name: '大工业分时',
  description: '',
  holidays: ['2026-10-01'],
  workdays: ['2026-10-10'],
  weekendDays: [6, 7],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  versions: [
    {
      id: 1,
      tariffId: 1,
      validFrom: '2020-01-01',
      note: '',
      prices: { tip: 1.2, peak: 1, flat: 0.6, valley: 0.3 },
      seasons: [
        { name: '全年', from: '01-01', to: '12-31', workday: DAY, weekend: DAY, holiday: ALL_VALLEY },
      ],
      demand: { kind: 'none' },
      powerFactorTarget: 0.9,
      createdAt: '2026-01-01T00:00:00.000Z',
    },
  ],
};

beforeEach(() => useSession.setState({ token: null, refreshToken: null, roles: ['admin'], routes: [] }));
afterEach(() => vi.unstubAllGlobals());

describe('the band preview', { timeout: 30_000 }, () => {
  it('places each stretch on the 24-hour strip, adjacent spans of one band merged', () => {
    const strip = dayStrip(tariff, tariff.versions, '2026-10-15');
    expect(strip?.dayType).toBe('workday');
    expect(strip?.season).toBe('全年');
    expect(strip?.segments.map((s) => [s.band, s.from, s.to, s.left, s.width, s.price])).toEqual([
      ['valley', '00:00', '08:00', 0, (8 / 24) * 100, 0.3],
      ['flat', '08:00', '10:00', (8 / 24) * 100, (2 / 24) * 100, 0.6],
      ['tip', '10:00', '12:00', (10 / 24) * 100, (2 / 24) * 100, 1.2],
      ['peak', '12:00', '18:00', 50, 25, 1],
      ['valley', '18:00', '24:00', 75, 25, 0.3],
    ]);
  });

  it('reads the day type from the tariff: a listed holiday, a worked Saturday, and nothing before the first version', () => {
    expect(dayStrip(tariff, tariff.versions, '2026-10-01')?.segments).toHaveLength(1);
    expect(dayStrip(tariff, tariff.versions, '2026-10-10')?.dayType).toBe('workday');
    expect(dayStrip(tariff, tariff.versions, '2026-10-11')?.dayType).toBe('weekend');
    expect(dayStrip(tariff, tariff.versions, '2019-12-31')).toBeNull();
  });

  it('draws nothing while the spans being edited leave a gap', () => {
    expect(spanSegments(DAY.slice(1), {})).toBeNull();
    expect(spanSegments(ALL_VALLEY, { valley: 0.3 })).toEqual([
      { band: 'valley', left: 0, width: 100, from: '00:00', to: '24:00', price: 0.3 },
    ]);
  });

  it('renders one labelled block per stretch', () => {
    const strip = dayStrip(tariff, tariff.versions, '2026-10-15');
    render(<BandStrip segments={strip?.segments ?? []} />);
    const el = screen.getByTestId('band-strip');
    expect(el.getAttribute('aria-label')).toBe(
      '谷 00:00–08:00, 平 08:00–10:00, 尖 10:00–12:00, 峰 12:00–18:00, 谷 18:00–24:00',
    );
    expect([...el.querySelectorAll('[data-band]')].map((b) => b.getAttribute('data-band'))).toEqual([
      'valley',
      'flat',
      'tip',
      'peak',
      'valley',
    ]);
  });

  it('shows the chosen day on the tariff screen beside the versions', async () => {
    mockApi((c) => (c.path === '/api/tariffs' ? { body: [tariff] } : undefined));
    renderScreen(<TariffScreen />, '/analysis/tariff');
    const strip = await screen.findByTestId('band-strip');
    expect(strip.getAttribute('aria-label')).toMatch(/^谷 00:00/);
    expect(await screen.findByText(/^版本 2020-01-01 · 季节 全年 · (工作日|周末)$/)).toBeTruthy();
    const versions = screen.getByText('1.2000').closest('table') as HTMLElement;
    expect(within(versions).getByText('2020-01-01')).toBeTruthy();
    expect(within(versions).getByText('当前')).toBeTruthy();
  });
});
