import type { StatisticsResult } from '@kilowatch/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../../../lib/i18n.ts';
import { useSession } from '../../../../lib/session.ts';
import { type FetchCall, mockApi, renderScreen } from '../../../../testing/render-with-api.tsx';
import ReportScreen from './ReportScreen.tsx';

// ECharts needs a canvas jsdom lacks: the chart shows what it was given instead.
vi.mock('echarts-for-react/esm/core', () => ({
  default: (props: {
    option: { xAxis?: { data?: string[] }; series?: { name?: string }[] };
    'data-testid'?: string;
  }) => (
    <div
      data-testid={props['data-testid']}
      data-labels={(props.option.xAxis?.data ?? []).join(',')}
      data-names={(props.option.series ?? []).map((s) => s.name).join('|')}
    />
  ),
}));

const HOUR = 3_600_000;
const root = {
  id: 1,
  parentId: null,
  name: '示范工厂',
  description: '',
  thingId: null,
  resourceType: 'region',
  dimensions: [],
  level: 1,
  sort: 0,
  isClick: true,
  children: [],
};

const answer = (values: (number | null)[][]): StatisticsResult => ({
  metricIdentifier: 'EP',
  metricName: '正向有功电能',
  unit: 'kWh',
  aggregator: 'delta',
  timeZone: 'Asia/Shanghai',
  startTime: 0,
  endTime: 2 * HOUR,
  groupByTime: 'hour',
  keys: [0, HOUR],
  labels: ['00:00', '01:00'],
  series: values.map((v, i) => ({
    key: `region:${i + 1}`,
    name: `区域${i + 1}`,
    resourceType: 'region',
    resourceId: i + 1,
    identifier: '',
    values: v,
    total: v.every((x) => x === null) ? null : v.reduce<number>((a, x) => a + (x ?? 0), 0),
    hasMetric: true,
  })),
  total: { values: [null, null], total: values.flat().reduce<number>((a, x) => a + (x ?? 0), 0) },
  circle: { running: 6.5, notRunning: 3.25, startupTimes: 3, things: 1 },
});

let calls: FetchCall[];
function api(result: StatisticsResult) {
  calls = mockApi((c) => {
    if (c.path === '/api/regions') return { body: [root] };
    if (c.path === '/api/thing/categories')
      return { body: { list: [{ id: 3, name: '电表' }], total: 1, page: 1, pageSize: 1000 } };
    if (c.path === '/api/thing/categories/3/abilities')
      return {
        body: [
          { identifier: 'EP', name: '正向有功电能', unit: 'kWh', cumulative: true },
          { identifier: 'runHours', name: '运行时长', unit: 'h', cumulative: true },
        ],
      };
    if (c.path === '/api/statistics/configs/config')
      return { body: { source: 'default', items: [], circle: {}, updatedAt: null } };
    if (c.path === '/api/filter-groups') return { body: [] };
    if (c.path === '/api/statistics/range') return { body: result };
    return undefined;
  });
}

beforeEach(() => useSession.setState({ token: null, refreshToken: null, roles: ['admin'], routes: [] }));
afterEach(() => vi.unstubAllGlobals());

describe('<ReportScreen>', { timeout: 30_000 }, () => {
  it('shows the plant today by hour with 2 decimals, the top list and the circle; exports standard by default', async () => {
    api(
      answer([
        [1.234, 2],
        [1000, 0.5],
      ]),
    );
    renderScreen(<ReportScreen />, '/analysis/report');
    expect((await screen.findByTestId('statistics-total')).textContent).toContain('1,003.73 kWh');
    const body = calls.find((c) => c.path === '/api/statistics/range')!.body as Record<string, unknown>;
    expect(body).toMatchObject({
      resourceType: 'region',
      resourceIds: [1],
      metricIdentifier: 'EP',
      period: 'day',
      circle: true,
    });
    const chart = screen.getByTestId('statistics-chart');
    expect(chart.dataset.labels).toBe('00:00,01:00');
    expect(chart.dataset.names).toBe('区域2|区域1|总计');
    const top = screen.getByTestId('statistics-top');
    const rows = within(top).getAllByRole('row').slice(1);
    expect(rows[0]?.textContent).toContain('区域21,000.50');
    expect(rows[1]?.textContent).toContain('区域13.23');
    expect(screen.getByText('运行统计').closest('.ant-card')?.textContent).toMatch(
      /运行时长6\.50h.*停机时长3\.25h.*启动次数3\.00/,
    );
    // Status metrics are never offered as series.
    expect(screen.queryByText(/运行时长 \(runHours\)/)).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: /导\s*出/ }));
    const dialog = await screen.findByRole('dialog');
    // Spec §4: the export type starts on standard (the first group), the format on xlsx.
    expect([...dialog.querySelectorAll('.ant-radio-wrapper-checked')].map((r) => r.textContent)).toEqual([
      '标准',
      'XLSX',
    ]);
  });

  it('shows the no-data state when nothing was recorded', async () => {
    api(answer([[null, null]]));
    renderScreen(<ReportScreen />, '/analysis/report');
    await waitFor(() => expect(calls.some((c) => c.path === '/api/statistics/range')).toBe(true));
    expect(await screen.findByText('所选时间范围内暂无数据')).toBeTruthy();
  });
});
