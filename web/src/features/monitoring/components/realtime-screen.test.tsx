import type { DeviceStatus, MetricConfig, QueryResult, RegionNode } from '@kilowatch/contract';
import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deferred, renderScreen } from '../../../components/charts/test-utils.tsx';
import type { RequestOptions } from '../../../lib/http.ts';

vi.mock('echarts-for-react/esm/core', () => ({
  default: (props: { option: unknown }) => (
    <div data-testid="echart" data-series={JSON.stringify((props.option as { series?: unknown }).series)} />
  ),
}));

const http = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn(), patch: vi.fn() }));
// lib/call.ts sends through `request`; it reaches the doubled verbs.
vi.mock('../../../lib/http.ts', async () => {
  const { requestViaHttp } = await import('../../../testing/request-via-http.ts');
  return { http, request: requestViaHttp(http) };
});

const { default: RealtimeScreen } = await import('./RealtimeScreen.tsx');
const { useSession } = await import('../../../lib/session.ts');
const { notify } = await import('../../../lib/notify.ts');

const node = (
  id: number,
  name: string,
  resourceType: 'region' | 'thing',
  children: RegionNode[] = [],
  parentId: number | null = null,
): RegionNode => ({
  id,
  parentId,
  name,
  description: '',
  thingId: resourceType === 'thing' ? id : null,
  resourceType,
  dimensions: [],
  level: 0,
  sort: 0,
  isClick: true,
  children,
});
const TREE = [
  node(1, '总厂', 'region', [
    node(11, '电表A', 'thing', [], 1),
    node(12, '电表B', 'thing', [], 1),
    node(13, '电表C', 'thing', [], 1),
  ]),
];
const CONFIG = {
  id: 1,
  resourceType: 'thing',
  resourceId: 11,
  categoryId: null,
  metricIdentifier: 'P',
  metricName: '有功功率',
  name: '有功功率',
  enabled: true,
  unit: 'kW',
  aggregator: 'avg',
  function: '',
  color: '#409EFF',
  sort: 0,
} as MetricConfig;
const STATUS: DeviceStatus[] = [
  { operation: 'run', name: '运转状态', unit: '', value: 1, ts: 0, thingId: 11 },
  { operation: 'P', name: '有功功率', unit: 'kW', value: 12.3456, ts: 0, thingId: 11 },
];

type PostArgs = [string, { resourceId: number; metricIdentifier: string }, RequestOptions];
const answer = (seq: string | null, value: number): QueryResult => ({
  result: [{ key: Number(seq ?? 0), value, group: '电表', complete: true }],
  seq,
  unit: 'kW',
  resolution: 'raw',
});

// Only the clock and intervals are fake (the ticker and the seq stamps); timeouts stay real so
// TanStack Query's notifications and React's scheduler run as in the browser.
const realTimeout = globalThis.setTimeout;
const flush = () =>
  act(async () => {
    for (let i = 0; i < 10; i++) await new Promise((r) => realTimeout(r, 0));
  });
const tick = async (ms: number) => {
  act(() => void vi.advanceTimersByTime(ms));
  await flush();
};
const dataPosts = () => (http.post.mock.calls as PostArgs[]).filter(([url]) => url === '/api/query/data');
const statusGets = () => http.get.mock.calls.filter(([url]) => url === '/api/query/realtime');

beforeEach(() => {
  vi.useFakeTimers({ now: 1_700_000_000_000, toFake: ['setInterval', 'clearInterval', 'Date'] });
  http.get.mockImplementation(async (url: string, params?: Record<string, unknown>) => {
    if (url === '/api/regions') return TREE;
    if (url === '/api/thing/categories') return { list: [] };
    if (url === '/api/query/config') return [{ ...CONFIG, resourceId: params?.resourceId }];
    if (url === '/api/query/realtime') return STATUS;
    if (url.startsWith('/api/thing/things/')) return [];
    if (url.startsWith('/api/board/components/')) return [];
    throw new Error(`unexpected GET ${url}`);
  });
  http.post.mockImplementation(async (_url: string, _body: unknown, options: RequestOptions) =>
    answer(String(options.params?.seq), 1),
  );
});

afterEach(() => {
  useSession.setState({ roles: [], routes: [] });
  vi.useRealTimers();
  vi.clearAllMocks();
});

// The first render of the screen styles every antd component it uses (CSS-in-JS) and takes
// seconds on a busy shared machine; the tests are about stamps and timers, not speed.
describe('RealtimeScreen', { timeout: 20_000 }, () => {
  it('polls every 10 s with a new seq stamp per tick, silently', async () => {
    renderScreen(<RealtimeScreen />, '/energy_monitor/realtime?resourceType=thing&resourceId=11');
    await flush();
    expect(dataPosts()).toHaveLength(1);
    const first = dataPosts()[0]!;
    expect(first[2]).toMatchObject({ silent: true, allowDuplicate: true, params: { seq: '1700000000000' } });
    expect(first[1]).toMatchObject({
      resourceId: 11,
      metricIdentifier: 'P',
      startTime: 1_700_000_000_000 - 300_000,
    });
    expect(statusGets()).toHaveLength(1);
    expect(statusGets()[0]![2]).toMatchObject({ silent: true });

    await tick(10_000);
    expect(dataPosts()).toHaveLength(2);
    expect(dataPosts()[1]![2].params?.seq).toBe('1700000010000');
    expect(statusGets()).toHaveLength(2);
  });

  it('after switching resource twice, exactly one request per 10 s, for the last one only', async () => {
    renderScreen(<RealtimeScreen />, '/energy_monitor/realtime?resourceType=thing&resourceId=11');
    await flush();
    await tick(4_000);
    fireEvent.click(screen.getByText('电表B'));
    await flush();
    await tick(3_000);
    fireEvent.click(screen.getByText('电表C'));
    await flush();
    expect(dataPosts().at(-1)![1].resourceId).toBe(13);

    http.post.mockClear();
    http.get.mockClear();
    await tick(9_999);
    expect(dataPosts()).toHaveLength(0);
    await tick(1);
    expect(dataPosts()).toHaveLength(1);
    expect(dataPosts()[0]![1].resourceId).toBe(13);
    await tick(10_000);
    expect(dataPosts()).toHaveLength(2);
    expect(dataPosts().every(([, body]) => body.resourceId === 13)).toBe(true);
    expect(statusGets()).toHaveLength(2);
  });

  it('clears its timer on unmount', async () => {
    const view = renderScreen(
      <RealtimeScreen />,
      '/energy_monitor/realtime?resourceType=thing&resourceId=11',
    );
    await flush();
    view.unmount();
    http.post.mockClear();
    http.get.mockClear();
    await tick(60_000);
    expect(dataPosts()).toHaveLength(0);
    expect(statusGets()).toHaveLength(0);
  });

  it('ignores a late answer whose seq is not the latest stamp', async () => {
    const slow = deferred<QueryResult>();
    http.post.mockImplementationOnce(() => slow.promise);
    renderScreen(<RealtimeScreen />, '/energy_monitor/realtime?resourceType=thing&resourceId=11');
    await flush();
    const firstSeq = String(dataPosts()[0]![2].params?.seq);

    // Tick 2 answers at once with 2; then tick 1's answer (value 1) arrives late.
    http.post.mockImplementationOnce(async (_u: string, _b: unknown, o: RequestOptions) =>
      answer(String(o.params?.seq), 2),
    );
    await tick(10_000);
    expect(screen.getByTestId('latest').textContent).toBe('2.00 kW');
    slow.resolve(answer(firstSeq, 1));
    await flush();
    expect(screen.getByTestId('latest').textContent).toBe('2.00 kW');
  });

  it('ignores an answer echoing another stamp', async () => {
    renderScreen(<RealtimeScreen />, '/energy_monitor/realtime?resourceType=thing&resourceId=11');
    await flush();
    expect(screen.getByTestId('latest').textContent).toBe('1.00 kW');
    http.post.mockImplementationOnce(async () => answer('123', 99));
    await tick(10_000);
    expect(screen.getByTestId('latest').textContent).not.toContain('99');
  });

  it('shows device status with 2 decimals and 运转状态 as a tag', async () => {
    renderScreen(<RealtimeScreen />, '/energy_monitor/realtime?resourceType=thing&resourceId=11');
    await flush();
    expect(screen.getByTestId('status-P').textContent).toContain('12.35');
    expect(screen.getByTestId('status-run').textContent).toContain('运行');
  });

  it('settings: only for users with the ability; a save toasts 修改成功 and restarts the ticker', async () => {
    const success = vi.spyOn(notify, 'success');
    renderScreen(<RealtimeScreen />, '/energy_monitor/realtime?resourceType=thing&resourceId=11');
    await flush();
    expect(screen.queryByText('指标设置')).toBeNull();
    useSession.setState({ roles: ['editor'], routes: ['/energy_monitor/realtime'] });
    await flush();
    fireEvent.click(screen.getByText('指标设置'));
    await flush();
    http.patch.mockResolvedValue([CONFIG]);
    vi.setSystemTime(1_700_000_004_000);
    http.post.mockClear();
    // antd spaces two-character Chinese button labels: 保 存.
    fireEvent.click(screen.getByText(/^保\s?存$/));
    await flush();
    expect(http.patch).toHaveBeenCalledWith(
      '/api/query/config',
      expect.objectContaining({
        resourceType: 'thing',
        resourceId: 11,
        configs: [expect.objectContaining({ metricIdentifier: 'P', enabled: true })],
      }),
    );
    expect(success).toHaveBeenCalledWith('修改成功');
    // Reloaded at once with a new stamp, then every 10 s from the restart.
    expect(dataPosts().map(([, , o]) => o.params?.seq)).toEqual(['1700000004000']);
    await tick(10_000);
    expect(dataPosts()).toHaveLength(2);
  }, 30_000);

  it("puts the overview and the charts before a region's cabinets, which are compact and searchable", async () => {
    const cabinets = Array.from({ length: 60 }, (_, i) => ({
      thingId: 100 + i,
      identifier: `AL-${i}`,
      name: i === 7 ? '一号车间水表' : `配电柜${i}`,
      description: '',
      categoryId: 1,
      setting: { attributes: [{ identifier: 'maker', name: '厂家', value: '安科瑞' }] },
      attrMap: { P: { name: '有功功率', unit: 'kW', value: i, ts: 0 } },
      lastSeenAgo: i % 2 ? 10 : null,
    }));
    http.get.mockImplementation(async (url: string, params?: Record<string, unknown>) => {
      if (url === '/api/regions') return TREE;
      if (url === '/api/thing/categories') return { list: [] };
      if (url === '/api/query/config')
        return [{ ...CONFIG, resourceType: 'region', resourceId: params?.resourceId }];
      if (url.startsWith('/api/thing/things/')) return [];
      if (url.startsWith('/api/board/components/')) return cabinets;
      throw new Error(`unexpected GET ${url}`);
    });
    renderScreen(<RealtimeScreen />, '/energy_monitor/realtime?resourceType=region&resourceId=1');
    await flush();
    const overview = screen.getByTestId('cabinet-overview');
    const chart = screen.getByTestId('realtime-P');
    const grid = screen.getByTestId('cabinet-count');
    const follows = (a: Element, b: Element) =>
      Boolean(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
    expect(follows(overview, chart)).toBe(true);
    expect(follows(chart, grid)).toBe(true);
    expect(overview.textContent).toContain('60');
    // 48 tiles a page; attributes only in a cabinet's drawer, not in the grid.
    expect(document.querySelectorAll('[data-testid^="cabinet-1"]').length).toBeLessThanOrEqual(48);
    expect(screen.queryByText('安科瑞')).toBeNull();
    fireEvent.change(screen.getByPlaceholderText('搜索设备名称或标识'), { target: { value: '水表' } });
    await flush();
    expect(grid.textContent).toBe('显示 1 / 共 60 台');
    fireEvent.click(screen.getByTestId('cabinet-107'));
    await flush();
    expect((await screen.findByTestId('cabinet-details-107')).textContent).toContain('安科瑞');
  });

  it("names a consumption per minute and shows today's total, asked of the server on the plant calendar", async () => {
    const energy = {
      ...CONFIG,
      metricIdentifier: 'EP',
      metricName: '正向有功电能',
      name: '用电量',
      unit: 'kWh',
      function: 'delta',
    };
    http.get.mockImplementation(async (url: string, params?: Record<string, unknown>) => {
      if (url === '/api/regions') return TREE;
      if (url === '/api/thing/categories') return { list: [] };
      if (url === '/api/query/config') return [{ ...energy, resourceId: params?.resourceId }];
      if (url === '/api/query/realtime') return STATUS;
      if (url.startsWith('/api/thing/things/')) return [];
      throw new Error(`unexpected GET ${url}`);
    });
    // The minute buckets hold 47 kWh each; the day bucket holds 1605 kWh.
    http.post.mockImplementation(
      async (_url: string, body: { groupByTime?: string }, options: RequestOptions) => ({
        ...answer(String(options.params?.seq), body.groupByTime === 'day' ? 1605 : 47),
        unit: 'kWh',
        ...(body.groupByTime ? { bucket: { groupByTime: body.groupByTime, groupByInterval: 1 } } : {}),
      }),
    );
    renderScreen(<RealtimeScreen />, '/energy_monitor/realtime?resourceType=thing&resourceId=11');
    await flush();
    const card = screen.getByTestId('realtime-EP');
    expect(card.textContent).toContain('每分钟用电量 (kWh)');
    expect(screen.getByTestId('today').textContent).toBe('今日用电量 1605.00 kWh');
    expect(card.textContent).not.toMatch(/今日用电量 47/);
    const bodies = dataPosts().map(
      ([, body]) => body as unknown as { groupByTime?: string; startTime: number; endTime: number },
    );
    // The chart asks for consumption per minute, not the register's raw points.
    expect(bodies).toContainEqual(expect.objectContaining({ groupByTime: 'minute', groupByInterval: 1 }));
    const day = bodies.find((b) => b.groupByTime === 'day')!;
    // The process zone stands in for the plant's here: the day holds the tick.
    expect(day.endTime - day.startTime).toBeGreaterThanOrEqual(23 * 3600_000);
    expect(day.startTime).toBeLessThanOrEqual(1_700_000_000_000);
    expect(day.endTime).toBeGreaterThan(1_700_000_000_000);
  });
});
