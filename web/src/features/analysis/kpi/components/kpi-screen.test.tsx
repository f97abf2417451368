import type { ReportComponent, ReportNode } from '@kilowatch/contract';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../../../lib/i18n.ts';
import { useSession } from '../../../../lib/session.ts';
import { type FetchCall, mockApi, renderScreen } from '../../../../testing/render-with-api.tsx';
import { KpiScreen } from './KpiScreen.tsx';

// The grid measures its container; jsdom has no layout, so it answers a fixed width.
vi.mock('react-grid-layout', async (original) => ({
  ...(await original<typeof import('react-grid-layout')>()),
  useContainerWidth: () => ({
    width: 1200,
    mounted: true,
    containerRef: { current: null },
    measureWidth: () => {},
  }),
}));
vi.mock('../../../../components/charts/index.ts', async (original) => ({
  ...(await original<typeof import('../../../../components/charts/index.ts')>()),
  LineChart: () => <div data-testid="line-chart" />,
  BarChart: () => <div data-testid="bar-chart" />,
}));

const node = (over: Partial<ReportNode>): ReportNode => ({
  id: 1,
  parentId: null,
  name: '',
  folder: true,
  report: false,
  published: false,
  publishedAt: null,
  level: 1,
  sort: 0,
  children: [],
  ...over,
});

const TREE: ReportNode[] = [
  node({
    id: 1,
    name: '能耗',
    children: [
      node({ id: 3, parentId: 1, name: '日报', folder: false, report: true, level: 2 }),
      node({ id: 4, parentId: 1, name: '月报', folder: false, report: true, level: 2, published: true }),
    ],
  }),
  node({
    id: 2,
    name: '设备',
    sort: 1,
    children: [node({ id: 5, parentId: 2, name: '隐藏的报表', folder: false, report: true })],
  }),
];

const component: ReportComponent = {
  id: 7,
  reportId: 4,
  title: '功率',
  chartType: 'line',
  yoy: { option: 'yesterday' },
  params: { thingId: 9 },
  metrics: [{ identifier: 'P', name: '有功功率', statistics: 'avg' }],
  layout: { x: 0, y: 0, w: 6, h: 8 },
  updatedAt: 0,
};

let calls: FetchCall[];
beforeEach(() => {
  calls = mockApi((c) => {
    if (c.path === '/api/reports') return { body: TREE };
    if (c.path === '/api/reports/3/components') return { body: [] };
    if (c.path === '/api/reports/4/components') return { body: [component] };
    if (c.path === '/api/query/data')
      return { body: { result: [], seq: null, unit: 'kW', resolution: 'hour' } };
    return undefined;
  });
});
afterEach(() => vi.unstubAllGlobals());

describe('<KpiScreen>', { timeout: 30_000 }, () => {
  it('opens the first folder, shows the linked report and its no-data state', async () => {
    useSession.setState({ roles: ['admin'], routes: [] });
    renderScreen(<KpiScreen />, '/analysis/kpi?report=3');
    expect((await screen.findByTestId('kpi-report-title', {}, { timeout: 8000 })).textContent).toBe('日报');
    expect(await screen.findByText('暂无数据：该报表还没有组件', {}, { timeout: 8000 })).toBeTruthy();
    // The first folder is open, the second closed.
    expect(screen.getByText('月报')).toBeTruthy();
    expect(screen.queryByText('隐藏的报表')).toBeNull();
    expect(screen.getAllByRole('button', { name: /添加组件/ }).length).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: /导出/ })).toHaveProperty('disabled', true);
  });

  it('an editor without the grant reads: no tree tools, no component tools, but an on-screen comparison', async () => {
    useSession.setState({ roles: ['editor'], routes: [] });
    renderScreen(<KpiScreen />, '/analysis/kpi?report=4');
    const card = await screen.findByTestId('kpi-component-7', {}, { timeout: 8000 });
    expect(screen.queryByRole('button', { name: '新建文件夹' })).toBeNull();
    expect(screen.queryByRole('button', { name: /添加组件/ })).toBeNull();
    expect(within(card).queryByRole('button', { name: '编辑组件' })).toBeNull();
    expect(screen.getByText('该报表已发布，只读。')).toBeTruthy();
    // Schedules hold people's addresses: no schedule tools without the grant.
    expect(screen.queryByTestId('kpi-schedules')).toBeNull();
    // The comparison the report was saved with is asked from the server's query.
    await vi.waitFor(() => expect(calls.some((c) => c.path === '/api/query/data')).toBe(true), {
      timeout: 5_000,
    });
    expect(calls.find((c) => c.path === '/api/query/data')?.body).toMatchObject({
      resourceType: 'thing',
      resourceId: 9,
      metricIdentifier: 'P',
      compare: { shift: { amount: -24, unit: 'hour' } },
    });
  });

  it('an editor with the grant may not change a published report; an admin may', async () => {
    useSession.setState({ roles: ['editor'], routes: ['/analysis/kpi'] });
    const { unmount } = renderScreen(<KpiScreen />, '/analysis/kpi?report=4');
    const card = await screen.findByTestId('kpi-component-7', {}, { timeout: 8000 });
    expect(screen.getByRole('button', { name: '新建文件夹' })).toBeTruthy();
    expect(within(card).queryByRole('button', { name: '编辑组件' })).toBeNull();
    expect(screen.queryByRole('button', { name: /取消发布/ })).toBeNull();
    // The grant schedules a published report too: mailing it changes nothing in it.
    expect(screen.getByTestId('kpi-schedules').textContent).toContain('定时发送');
    unmount();

    useSession.setState({ roles: ['admin'], routes: [] });
    renderScreen(<KpiScreen />, '/analysis/kpi?report=4');
    const adminCard = await screen.findByTestId('kpi-component-7', {}, { timeout: 8000 });
    expect(within(adminCard).getByRole('button', { name: '编辑组件' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /取消发布/ })).toBeTruthy();
  });
});
