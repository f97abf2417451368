import type { RegionNode, Thing } from '@kilowatch/contract';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen } from '../../../components/charts/test-utils.tsx';

// The first render loads antd and i18n, slow on a busy machine.
vi.setConfig({ testTimeout: 20_000 });

vi.mock('echarts-for-react/esm/core', () => ({ default: () => <div data-testid="echart" /> }));

const http = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn(), patch: vi.fn() }));
// lib/call.ts sends through `request`; it reaches the doubled verbs.
vi.mock('../../../lib/http.ts', async () => {
  const { requestViaHttp } = await import('../../../testing/request-via-http.ts');
  return { http, request: requestViaHttp(http) };
});

const { default: RealtimeScreen } = await import('./RealtimeScreen.tsx');
const { default: HistoryScreen } = await import('./HistoryScreen.tsx');

const region = (id: number, name: string, children: RegionNode[] = []): RegionNode => ({
  id,
  parentId: null,
  name,
  description: '',
  thingId: null,
  resourceType: 'region',
  dimensions: [],
  level: 1,
  sort: 0,
  isClick: true,
  children,
});
const leaf = (id: number, name: string, parentId: number): RegionNode => ({
  ...region(id, name),
  parentId,
  thingId: id,
  resourceType: 'thing',
  dimensions: [parentId],
  level: 2,
});
const thing = (id: number, name: string): Thing => ({
  id,
  identifier: `T${id}`,
  name,
  description: '',
  modelId: 1,
  modelName: 'A型',
  categoryId: 1,
  categoryName: '电表',
  setting: { attributes: [] },
  createdAt: '',
  updatedAt: '',
});

let tree: RegionNode[] = [];
let unbound: Thing[] = [];

const flush = () =>
  act(async () => {
    for (let i = 0; i < 10; i++) await new Promise((r) => setTimeout(r, 0));
  });
const search = (text: string) =>
  fireEvent.change(screen.getByRole('searchbox', { name: '搜索区域或设备' }), { target: { value: text } });
const panel = () => screen.getByText('区域与设备').closest('.ant-card') as HTMLElement;

beforeEach(() => {
  http.get.mockImplementation(async (url: string) => {
    if (url === '/api/regions') return tree;
    if (url === '/api/regions/unbound') return unbound;
    if (url === '/api/thing/categories') return { list: [] };
    if (url === '/api/query/config') return [];
    if (url === '/api/query/realtime') return [];
    if (url.startsWith('/api/thing/things/')) return [];
    if (url.startsWith('/api/board/components/')) return [];
    throw new Error(`unexpected GET ${url}`);
  });
  http.post.mockResolvedValue({ result: [], seq: null, unit: '', resolution: 'raw' });
});

afterEach(() => {
  vi.clearAllMocks();
});

describe('the region/device tree of the monitoring screens', () => {
  it('shows devices bound to no region in an "unassigned" group, searchable and selectable', async () => {
    tree = [region(1, '一车间', [leaf(11, '进线柜', 1)])];
    unbound = [thing(21, '孤立电表')];
    const { location } = renderScreen(<RealtimeScreen />, '/energy_monitor/realtime');
    await flush();
    expect(http.get).toHaveBeenCalledWith(
      '/api/regions/unbound',
      { categoryId: undefined },
      { silent: true },
    );
    expect(within(panel()).getByText('未分配区域的设备')).toBeTruthy();
    search('孤立');
    await flush();
    fireEvent.click(within(panel()).getByText('孤立电表'));
    await flush();
    expect(location.current).toContain('resourceType=thing&resourceId=21');
  });

  it('says "no match" when the search finds nothing, not that there are no regions', async () => {
    tree = [region(1, '一车间', [leaf(11, '进线柜', 1)])];
    unbound = [];
    renderScreen(<HistoryScreen />, '/energy_monitor/history');
    await flush();
    search('不存在的设备');
    await flush();
    expect(within(panel()).getByText('没有名称包含“不存在的设备”的区域或设备')).toBeTruthy();
    expect(within(panel()).queryByText(/暂无区域/)).toBeNull();
  });

  it('opens on the first unassigned device when there are no regions yet', async () => {
    tree = [];
    unbound = [thing(21, '孤立电表')];
    const { location } = renderScreen(<RealtimeScreen />, '/energy_monitor/realtime');
    await flush();
    expect(within(panel()).getByText('孤立电表')).toBeTruthy();
    // The view shows that device (its status is asked for), though the address names none.
    expect(http.get).toHaveBeenCalledWith(
      '/api/query/realtime',
      expect.objectContaining({ resourceType: 'thing', resourceId: 21 }),
      expect.anything(),
    );
    expect(location.current).toBe('/energy_monitor/realtime');
  });

  it('says there are neither regions nor devices when both are missing', async () => {
    tree = [];
    unbound = [];
    renderScreen(<HistoryScreen />, '/energy_monitor/history');
    await flush();
    expect(within(panel()).getByText('暂无区域和设备：请先在设备管理中添加设备')).toBeTruthy();
  });
});
