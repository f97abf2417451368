import type { LiveValue, Overview, Placement, SituationMap } from '@kilowatch/contract';
import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../../lib/i18n.ts';
import { useSession } from '../../../lib/session.ts';
import { mockApi, renderScreen } from '../../../testing/render-with-api.tsx';
import { DashboardPage } from './DashboardPage.tsx';

vi.mock('echarts-for-react/esm/core', () => ({ default: () => <div data-testid="echart" /> }));

/** jsdom has no EventSource: a stand-in the test drives, one per opened stream. */
class FakeEventSource {
  static opened: FakeEventSource[] = [];
  listeners = new Map<string, ((event: MessageEvent<string>) => void)[]>();
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.opened.push(this);
  }
  addEventListener(type: string, fn: (event: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  emit(type: string, data: unknown) {
    for (const fn of this.listeners.get(type) ?? [])
      fn({ data: JSON.stringify(data) } as MessageEvent<string>);
  }
  close() {
    this.closed = true;
  }
}

const OVERVIEW: Overview = {
  at: Date.now(),
  region: { id: 1, name: '示范工厂' },
  power: 47.5,
  energyToday: 80,
  costToday: 52.3,
  tariff: { id: 1, name: '大工业', source: { kind: 'plant', region: null } },
  alarms: { critical: 1, major: 0, minor: 2, warning: 0, unacknowledged: 1 },
  devices: { online: 3, offline: 1, never: 0, total: 4 },
  metrics: { power: 'P', energy: 'EP' },
};
const MARKER: Placement = {
  id: 5,
  resourceType: 'thing',
  resourceId: 7,
  name: '空压机1',
  x: 0.5,
  y: 0.5,
  presence: 'offline',
  online: 0,
  things: 1,
  alarm: null,
};
const IMAGE = {
  type: 'image/png' as const,
  width: 1920,
  height: 1080,
  size: 100,
  version: 'v1',
  updatedAt: '2026-11-24T00:00:00Z',
  updatedBy: 'admin',
};

let map: SituationMap;

beforeEach(() => {
  FakeEventSource.opened = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:map', revokeObjectURL: () => {} }));
  useSession.setState({ token: 'header.eyJleHAiOjk5OTk5OTk5OTl9.sig', refreshToken: 'r' });
  map = { image: null, placements: [] };
  mockApi((c) => {
    if (c.path === '/api/dashboard/overview') return { body: OVERVIEW };
    if (c.path === '/api/dashboard/map') return { body: map };
    if (c.path === '/api/dashboard/map/image') return { body: 'the image bytes' };
    if (c.path === '/api/query/live/ticket') return { body: { ticket: 'k1', expiresIn: 30 } };
    if (c.path === '/api/query/data')
      return { body: { result: [], seq: null, unit: 'kW', resolution: 'minute' } };
    return undefined;
  });
});
afterEach(() => vi.unstubAllGlobals());

describe('DashboardPage', () => {
  it("shows the plant's totals and, without an image, offers the upload to the admin", async () => {
    useSession.setState({ roles: ['admin'], routes: [] });
    renderScreen(<DashboardPage />, '/dashboard');
    expect(await screen.findByText('47.5')).toBeTruthy();
    expect(screen.getByText('80.0')).toBeTruthy();
    expect(screen.getByText('52.30')).toBeTruthy();
    expect(screen.getByTestId('kpi-tariff').textContent).toBe('大工业（全厂电价）');
    expect(screen.getByTestId('kpi-alarm-critical').textContent).toContain('1');
    expect(screen.getByText('未确认 1')).toBeTruthy();
    expect(screen.getByTestId('kpi-online').textContent).toBe('3');
    expect((await screen.findByTestId('map-empty')).textContent).toContain('尚未上传厂区布局图');
    expect(screen.getByTestId('map-upload')).toBeTruthy();
  });

  it('asks a user without the grant to have the image uploaded, and shows no controls in kiosk mode', async () => {
    useSession.setState({ roles: ['editor'], routes: [] });
    const { unmount } = renderScreen(<DashboardPage />, '/dashboard');
    expect((await screen.findByTestId('map-empty')).textContent).toContain('请联系管理员上传厂区布局图');
    expect(screen.queryByTestId('map-upload')).toBeNull();
    unmount();
    useSession.setState({ roles: ['admin'], routes: [] });
    renderScreen(<DashboardPage />, '/dashboard?kiosk=1');
    expect((await screen.findByTestId('map-empty')).textContent).toContain('请联系管理员上传厂区布局图');
    expect(screen.queryByTestId('dashboard-kiosk')).toBeNull();
  });

  it('colours a marker from the live channel and closes the channel when the page goes', async () => {
    useSession.setState({ roles: ['editor'], routes: [] });
    map = { image: IMAGE, placements: [MARKER] };
    const { unmount } = renderScreen(<DashboardPage />, '/dashboard');
    const marker = await screen.findByTestId('marker-thing-7');
    expect(marker.getAttribute('data-presence')).toBe('offline');
    await vi.waitFor(() => expect(FakeEventSource.opened).toHaveLength(1), { timeout: 5_000 });
    const stream = FakeEventSource.opened[0] as FakeEventSource;
    expect(stream.url).toBe('/api/query/live?thingIds=7&ticket=k1');
    const values: LiveValue[] = [
      { thingId: 7, metric: 'status', ts: Date.now(), value: '1' },
      { thingId: 7, metric: 'P', ts: Date.now(), value: 42 },
    ];
    act(() => stream.emit('values', values));
    expect(marker.getAttribute('data-presence')).toBe('online');
    expect(marker.getAttribute('data-running')).toBe('true');
    expect(marker.textContent).toContain('42.0 kW');
    unmount();
    expect(stream.closed).toBe(true);
  });
});
