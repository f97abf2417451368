import type { MetricConfig, RegionNode } from '@kilowatch/contract';
import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen, settle } from '../../../components/charts/test-utils.tsx';
import type { RequestOptions } from '../../../lib/http.ts';
import { useSession } from '../../../lib/session.ts';

// The browser in New York; the plant's zone is the browser's until a test signs in a user whose
// server says otherwise (Me.timeZone). Node follows a TZ set at run time (own process per file).
process.env.TZ = 'America/New_York';

vi.mock('echarts-for-react/esm/core', () => ({
  default: (props: { option: { xAxis?: { data?: string[] }; series?: { name?: string }[] } }) => (
    <div
      data-testid="echart"
      data-labels={(props.option.xAxis?.data ?? []).join(',')}
      data-names={(props.option.series ?? []).map((s) => s.name).join('|')}
    />
  ),
}));
const http = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn(), patch: vi.fn() }));
// lib/call.ts sends through `request`; it reaches the doubled verbs.
vi.mock('../../../lib/http.ts', async () => {
  const { requestViaHttp } = await import('../../../testing/request-via-http.ts');
  return { http, request: requestViaHttp(http) };
});
const { default: HomeScreen } = await import('./HomeScreen.tsx');
const { default: ChartDetailScreen } = await import('./ChartDetailScreen.tsx');

const NOW = new Date(2024, 2, 5, 14, 30).getTime();
const ROOT: RegionNode = {
  id: 1,
  parentId: null,
  name: '总厂',
  description: '',
  thingId: null,
  resourceType: 'region',
  dimensions: [],
  level: 0,
  sort: 0,
  isClick: true,
  children: [],
};
const CONFIG = {
  id: 1,
  resourceType: 'region',
  resourceId: 1,
  categoryId: null,
  metricIdentifier: 'E',
  metricName: '电量',
  name: '电量',
  enabled: true,
  unit: 'kWh',
  aggregator: 'sum',
  function: 'delta',
  color: '#409EFF',
  sort: 0,
} as MetricConfig;

let regions: RegionNode[] = [ROOT];
let configs: MetricConfig[] = [CONFIG];
type PostArgs = [string, Record<string, unknown>, RequestOptions];
const posts = () => http.post.mock.calls as PostArgs[];

beforeEach(() => {
  regions = [ROOT];
  configs = [CONFIG];
  vi.useFakeTimers({ now: NOW, toFake: ['setInterval', 'clearInterval', 'Date'] });
  http.get.mockImplementation(async (url: string) => {
    if (url === '/api/regions') return regions;
    if (url === '/api/query/config') return configs;
    if (url === '/api/thing/categories') return { list: [{ id: 3, name: '电表' }] };
    if (url === '/api/thing/categories/3/abilities')
      return [
        { identifier: 'P', name: '有功功率', unit: 'kW', dataType: 'number', aggregator: 'avg', sort: 0 },
        {
          identifier: 'runtime',
          name: '运行时长',
          unit: 'h',
          dataType: 'number',
          aggregator: 'max',
          sort: 1,
        },
      ];
    return [];
  });
  http.post.mockImplementation(async (_u: string, body: { startTime: number; compare?: unknown }) => ({
    result: [{ key: body.startTime + 14 * 3600_000, value: 5, group: '总厂', complete: false }],
    seq: null,
    unit: 'kWh',
    resolution: 'hour',
    // The server keys comparison points on the shown period's buckets (query/ranges.ts).
    ...(body.compare
      ? {
          compare: {
            startTime: 0,
            endTime: 0,
            shift: { amount: -1, unit: 'day' },
            result: [{ key: body.startTime, at: 0, value: 4, group: '总厂', complete: true }],
          },
        }
      : {}),
  }));
});

afterEach(() => {
  vi.useRealTimers();
  vi.clearAllMocks();
  useSession.getState().clear();
});

describe('HomeScreen', () => {
  it("charts today's hours of each root config and refreshes every 30 s silently", async () => {
    renderScreen(<HomeScreen />, '/home');
    await settle();
    expect(posts()).toHaveLength(1);
    const [, body, options] = posts()[0]!;
    expect(body).toMatchObject({
      resourceType: 'region',
      resourceId: 1,
      metricIdentifier: 'E',
      aggregator: 'delta',
      period: 'day',
      groupByTime: 'hour',
      startTime: new Date(2024, 2, 5).getTime(),
      successor: true,
    });
    expect(options.silent).toBe(true);
    const labels = screen.getByTestId('echart').getAttribute('data-labels')!.split(',');
    expect(labels[0]).toBe('00:00');
    expect(labels[14]).toBe('14:00');
    // The bars are per hour, the figure beside the title is the day's: each label says which.
    expect(screen.getByTestId('home-card-E').textContent).toContain('每小时电量 (kWh)');
    expect(screen.getByTestId('total').textContent).toMatch(/^今日电量 [\d.]+ kWh$/);

    act(() => void vi.advanceTimersByTime(29_999));
    await settle();
    expect(posts()).toHaveLength(1);
    act(() => void vi.advanceTimersByTime(1));
    await settle();
    expect(posts()).toHaveLength(2);
    expect(posts()[1]![2].silent).toBe(true);
  });

  it('opens the chart detail of a card', async () => {
    const view = renderScreen(<HomeScreen />, '/home');
    await settle();
    // The title is a real button named by its text (keyboard users reach it with Tab).
    const open = screen.getByRole('button', { name: '每小时电量 (kWh)' });
    expect(screen.getByTestId('home-card-E').contains(open)).toBe(true);
    fireEvent.click(open);
    expect(view.location.current).toBe('/home/chartdetail?resourceType=region&resourceId=1&metric=E');
  });

  it('without configs, says which metrics can be shown', async () => {
    configs = [];
    renderScreen(<HomeScreen />, '/home');
    await settle();
    expect(screen.getByTestId('available-metrics').textContent).toBe('可显示的指标：有功功率');
  });

  it('without regions, points to 区域管理', async () => {
    regions = [];
    const view = renderScreen(<HomeScreen />, '/home');
    await settle();
    fireEvent.click(screen.getByText('前往区域管理'));
    expect(view.location.current).toBe('/region');
  });
});

describe('ChartDetailScreen', () => {
  it('compares with yesterday (-24 h) on the same axis', async () => {
    renderScreen(
      <ChartDetailScreen />,
      '/home/chartdetail?resourceType=region&resourceId=1&metric=E&yoy=yesterday',
    );
    await settle();
    const starts = posts().map(([, body]) => body.startTime);
    const today = new Date(2024, 2, 5).getTime();
    // One call: the server answers the comparison -24 h on the same buckets.
    expect(starts).toEqual([today]);
    expect(posts()[0]![1].compare).toEqual({ shift: { amount: -24, unit: 'hour' } });
    expect(screen.getByTestId('echart').getAttribute('data-names')).toBe('电量|电量 (昨日)|数据不完整');
  });

  it('names a metric without a config as its home card and picker do, not by its identifier', async () => {
    configs = [];
    renderScreen(<ChartDetailScreen />, '/home/chartdetail?resourceType=region&resourceId=1&metric=P');
    await settle();
    expect(posts()[0]![1]).toMatchObject({ metricIdentifier: 'P', aggregator: 'avg' });
    expect(screen.getByTestId('echart').getAttribute('data-names')!.split('|')[0]).toBe('有功功率');
  });

  it('by month with a chosen date: labels MM-DD, buckets by day', async () => {
    renderScreen(
      <ChartDetailScreen />,
      '/home/chartdetail?resourceType=region&resourceId=1&metric=E&period=month&date=2024-02-10&yoy=date&compare=2023-02-01',
    );
    await settle();
    expect(posts()[0]![1]).toMatchObject({
      period: 'month',
      groupByTime: 'day',
      startTime: new Date(2024, 1, 1).getTime(),
    });
    expect(posts()[0]![1].compare).toEqual({ startTime: new Date(2023, 1, 1).getTime() });
    expect(screen.getByTestId('echart').getAttribute('data-labels')!.split(',')[0]).toBe('02-01');
  });
});

describe('a plant in another zone than the browser', () => {
  // 2024-03-05 14:30 in New York is 2024-03-06 03:30 in Shanghai.
  const shanghai = (text: string) => Date.parse(`${text}+08:00`);
  beforeEach(() => {
    useSession.getState().setUser({
      id: 1,
      username: 'admin',
      name: '管理员',
      avatar: '',
      introduction: '',
      roles: ['admin'],
      routes: [],
      userLevel: 1,
      setting: {},
      timeZone: 'Asia/Shanghai',
    });
  });

  it("home charts the plant's today with the plant's hour labels", async () => {
    renderScreen(<HomeScreen />, '/home');
    await settle();
    expect(posts()[0]![1]).toMatchObject({
      period: 'day',
      startTime: shanghai('2024-03-06T00:00'),
      endTime: shanghai('2024-03-07T00:00'),
    });
    const labels = screen.getByTestId('echart').getAttribute('data-labels')!.split(',');
    expect(labels).toHaveLength(24);
    expect(labels[0]).toBe('00:00');
    expect(screen.getByText(/2024-03-06/)).toBeTruthy();
  });

  it("the detail's dates, periods, labels and year-on-year are the plant's", async () => {
    renderScreen(
      <ChartDetailScreen />,
      '/home/chartdetail?resourceType=region&resourceId=1&metric=E&period=month&date=2024-02-10&yoy=date&compare=2023-02-01',
    );
    await settle();
    // One call: the comparison comes with it.
    const month = posts().filter(([, body]) => body.period === 'month');
    expect(month).toHaveLength(1);
    expect(month[0]![1]).toMatchObject({
      period: 'month',
      groupByTime: 'day',
      startTime: shanghai('2024-02-01T00:00'),
      endTime: shanghai('2024-03-01T00:00'),
      compare: { startTime: shanghai('2023-02-01T00:00') },
    });
    // The server's day buckets start at the plant's midnights: labelled by the plant's date
    // (New York's clock would call the first one 01-31).
    const labels = screen.getByTestId('echart').getAttribute('data-labels')!.split(',');
    expect(labels).toHaveLength(29);
    expect(labels[0]).toBe('02-01');
    expect(labels[28]).toBe('02-29');
    // The date picker shows the plant's date.
    expect(screen.getByDisplayValue('2024-02')).toBeTruthy();
  });
});
