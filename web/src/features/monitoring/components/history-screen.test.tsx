import type { EffectiveAbility, MetricConfig, RegionNode } from '@kilowatch/contract';
import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen, settle } from '../../../components/charts/test-utils.tsx';
import type { RequestOptions } from '../../../lib/http.ts';
import { useSession } from '../../../lib/session.ts';

vi.mock('echarts-for-react/esm/core', () => ({
  default: (props: { option: { series?: { name?: string; data?: unknown[] }[] } }) => (
    <div data-testid="echart" data-names={(props.option.series ?? []).map((s) => s.name).join('|')} />
  ),
}));
const http = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn(), patch: vi.fn() }));
// lib/call.ts sends through `request`; it reaches the doubled verbs.
vi.mock('../../../lib/http.ts', async () => {
  const { requestViaHttp } = await import('../../../testing/request-via-http.ts');
  return { http, request: requestViaHttp(http) };
});
const { default: HistoryScreen } = await import('./HistoryScreen.tsx');

const NOW = 1_700_000_000_000;
const region = (id: number, name: string, children: RegionNode[] = []): RegionNode => ({
  id,
  parentId: null,
  name,
  description: '',
  thingId: null,
  resourceType: 'region',
  dimensions: [],
  level: 0,
  sort: 0,
  isClick: true,
  children,
});
const TREE = [
  region(1, '总厂', [{ ...region(11, '电表A'), parentId: 1, thingId: 11, resourceType: 'thing' }]),
];
const ability = (identifier: string, name: string, extra: Partial<EffectiveAbility> = {}) =>
  ({
    identifier,
    name,
    unit: 'kWh',
    dataType: 'number',
    aggregator: 'sum',
    cumulative: false,
    sort: 0,
    ...extra,
  }) as EffectiveAbility;
const ABILITIES = [
  ability('E', '电量'),
  ability('runtime', '运行时长', { unit: 'h', cumulative: true }),
  ability('starts', '启动次数', { unit: '次', cumulative: true }),
];

type PostArgs = [string, Record<string, unknown>, RequestOptions];
const posts = () => http.post.mock.calls as PostArgs[];

beforeEach(() => {
  vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
  http.get.mockImplementation(async (url: string) => {
    if (url === '/api/regions') return TREE;
    if (url === '/api/query/config') return [] as MetricConfig[];
    if (url.startsWith('/api/thing/things/')) return ABILITIES;
    if (url === '/api/thing/categories') return { list: [] };
    return [];
  });
  http.post.mockImplementation(async (_url: string, body: { metricIdentifier: string }) => ({
    result:
      body.metricIdentifier === 'E'
        ? [
            { key: NOW - 600_000, value: 1, group: '电表A', complete: true },
            { key: NOW - 600_000, value: 2, group: '电表B', complete: true },
            { key: NOW, value: 3, group: '电表A', complete: false },
            { key: NOW, value: 4, group: '电表B', complete: true },
          ]
        : [{ key: NOW - 3600_000, value: 2.5, group: '总厂', complete: true }],
    seq: null,
    unit: 'kWh',
    resolution: 'raw',
  }));
});

afterEach(() => {
  vi.useRealTimers();
  vi.clearAllMocks();
});

describe('HistoryScreen', () => {
  it('shows the last 1 hour by default, downsampled, silently', async () => {
    renderScreen(<HistoryScreen />, '/energy_monitor/history?resourceType=region&resourceId=1');
    await settle();
    const line = posts().find(([, body]) => body.metricIdentifier === 'E')!;
    expect(line[1]).toMatchObject({
      startTime: NOW - 3600_000,
      endTime: NOW,
      maxPoints: 2000,
      successor: true,
    });
    // A whole region without a category: its own series, combined on the server.
    expect(line[1]).not.toHaveProperty('combine');
    expect(line[2]).toMatchObject({ silent: true });
  });

  it('keeps 运行时长 and 启动次数 out of the lines and shows them as numbers', async () => {
    renderScreen(<HistoryScreen />, '/energy_monitor/history?resourceType=region&resourceId=1');
    await settle();
    const names = screen.getByTestId('echart').getAttribute('data-names')!.split('|');
    expect(names.some((n) => n.includes('运行时长') || n.includes('启动次数'))).toBe(false);
    expect(screen.getByTestId('counter-runtime').textContent).toContain('2.50');
    const summary = posts().find(([, body]) => body.metricIdentifier === 'runtime')!;
    expect(summary[1]).toMatchObject({
      aggregator: 'delta',
      groupByTime: 'minute',
      groupByInterval: 60,
    });
  });

  it('adds a total line for SUM and marks incomplete buckets', async () => {
    renderScreen(<HistoryScreen />, '/energy_monitor/history?resourceType=region&resourceId=1');
    await settle();
    const names = screen.getByTestId('echart').getAttribute('data-names')!.split('|');
    expect(names).toContain('合计');
    expect(names).toContain('电表A');
    expect(names).toContain('数据不完整');
  });

  // The server picks 5-minute buckets for these 72 h (server/src/modules/query/compare.test.ts).
  it('asks the server for automatic buckets of at most 2000 points over 72 h', async () => {
    renderScreen(<HistoryScreen />, '/energy_monitor/history?resourceType=thing&resourceId=11&hours=72');
    await settle();
    const line = posts().find(([, body]) => body.metricIdentifier === 'E')!;
    expect(line[1]).toMatchObject({
      startTime: NOW - 72 * 3600_000,
      groupByTime: 'auto',
      maxPoints: 2000,
    });
    expect(line[1]).not.toHaveProperty('groupByInterval');
    expect(line[1]).not.toHaveProperty('combine');
  });

  it('lets the user choose the table page size, 10 first; the view offers an export', async () => {
    renderScreen(<HistoryScreen />, '/energy_monitor/history?resourceType=region&resourceId=1');
    await settle();
    expect(screen.getByTestId('history-view').querySelector('[data-testid="export-menu"]')).not.toBeNull();
    fireEvent.click(screen.getByText('数据表'));
    await settle();
    const changer = document.querySelector('.ant-pagination-options-size-changer');
    expect(changer).not.toBeNull();
    expect(changer!.textContent).toContain('10');
  });

  it("prints the window and the table's times on the plant's clock", async () => {
    // NOW is 2023-11-14 22:13:20 UTC: 2023-11-15 06:13 in Shanghai, whatever the browser's zone.
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
    try {
      renderScreen(<HistoryScreen />, '/energy_monitor/history?resourceType=region&resourceId=1');
      await settle();
      expect(screen.getByTestId('history-range').textContent).toBe('2023-11-15 05:13 ~ 2023-11-15 06:13');
    } finally {
      useSession.getState().clear();
    }
  });

  it('names a counter per bucket, asks it per bucket even over an hour, and lists the table newest first', async () => {
    http.get.mockImplementation(async (url: string) => {
      if (url === '/api/regions') return TREE;
      if (url === '/api/query/config') return [] as MetricConfig[];
      if (url.startsWith('/api/thing/things/')) return [ability('EP', '用电量', { cumulative: true })];
      if (url === '/api/thing/categories') return { list: [] };
      return [];
    });
    http.post.mockImplementation(async () => ({
      result: [
        { key: NOW - 120_000, value: 40, group: '电表A', complete: true },
        { key: NOW - 60_000, value: 47, group: '电表A', complete: true },
        { key: NOW, value: null, group: '电表A', complete: false },
      ],
      seq: null,
      unit: 'kWh',
      resolution: 'minute',
      bucket: { groupByTime: 'minute', groupByInterval: 1 },
    }));
    renderScreen(<HistoryScreen />, '/energy_monitor/history?resourceType=thing&resourceId=11');
    await settle();
    const line = posts().find(([, body]) => body.metricIdentifier === 'EP')!;
    expect(line[1]).toMatchObject({ groupByTime: 'auto', maxPoints: 2000 });
    expect(screen.getByTestId('echart').getAttribute('data-names')!.split('|')).toContain('每分钟用电量');
    fireEvent.click(screen.getByText('数据表'));
    await settle();
    const cells = [...document.querySelectorAll('.ant-table-tbody tr.ant-table-row')].map(
      (r) => r.textContent,
    );
    expect(cells[0]).toMatch(/-$/);
    expect(cells[1]).toMatch(/47\.00$/);
    expect(cells[2]).toMatch(/40\.00$/);
    expect(screen.getByTestId('history-legend').textContent).toContain('“*”：数据不完整');
  });
});
