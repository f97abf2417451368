import type { Enpi, EnpiReport } from '@kilowatch/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../../../lib/i18n.ts';
import { useSession } from '../../../../lib/session.ts';
import { type FetchCall, mockApi, recordToasts, renderScreen } from '../../../../testing/render-with-api.tsx';
import { baselineChartOption, enpiChartOption } from '../lib/charts.ts';
import { inputOf, valuesOf, variableProblem } from '../lib/form.ts';
import { EnpiScreen } from './EnpiScreen.tsx';

// ECharts needs a canvas jsdom lacks: the chart shows what it was given instead.
vi.mock('echarts-for-react/esm/core', () => ({
  default: (props: {
    option: { xAxis?: { data?: string[] }; series?: { name?: string; data?: unknown[] }[] };
    'data-testid'?: string;
  }) => (
    <div
      data-testid={props['data-testid']}
      data-labels={(props.option.xAxis?.data ?? []).join(',')}
      data-names={(props.option.series ?? []).map((s) => s.name).join('|')}
      data-values={JSON.stringify((props.option.series ?? []).map((s) => s.data))}
    />
  ),
}));

const enpi: Enpi = {
  id: 7,
  name: '一号车间单位产品电耗',
  description: '',
  energy: { resourceType: 'region', resourceId: 1, metricIdentifier: 'EP' },
  output: { kind: 'entered' },
  outputUnit: '件',
  temperature: { thingId: 3, metricIdentifier: 'outdoorTemp', heatingBase: 18, coolingBase: null },
  period: 'month',
  baselineStart: '2025-01-01',
  baselineEnd: '2025-02-28',
  variables: ['output'],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

const row = (
  period: string,
  energy: number | null,
  output: number | null,
  extra: Partial<EnpiReport['periods'][number]> = {},
): EnpiReport['periods'][number] => ({
  period,
  label: period.slice(0, 7),
  startTime: Date.parse(`${period}T00:00:00+08:00`),
  endTime: 0,
  energy,
  output,
  enpi: energy !== null && output ? energy / output : null,
  gap: energy === null ? 'noEnergy' : output === null ? 'noOutput' : output === 0 ? 'zeroOutput' : null,
  hdd: 300,
  cdd: null,
  inBaseline: period < '2025-03-01',
  expected: 1000,
  savings: energy === null ? null : 1000 - energy,
  cusum: period < '2025-03-01' ? null : 1000 - (energy ?? 0),
  ...extra,
});

const report: EnpiReport = {
  enpi,
  timeZone: 'Asia/Shanghai',
  energyUnit: 'kWh',
  periods: [row('2025-01-01', 1000, 50), row('2025-02-01', 1200, 60), row('2025-03-01', 900, 0)],
  model: {
    variables: ['output'],
    intercept: 123.456,
    coefficients: [15.5],
    n: 2,
    r2: 0.9812,
    cvrmse: 0.0661,
    adequate: true,
    r2Min: 0.75,
    cvrmseMax: 0.15,
  },
  modelError: null,
  totals: { energy: 900, expected: 1000, savings: 100 },
};

/** The first paint of the screen (lazy antd parts, three queries) under a loaded machine. */
const SLOW = { timeout: 15_000 };

let calls: FetchCall[];
let outputs: { period: string; value: number }[];
let current: EnpiReport;

beforeEach(() => {
  useSession.setState({ token: null, refreshToken: null, roles: ['admin'], routes: [] });
  outputs = [
    { period: '2025-01-01', value: 50 },
    { period: '2025-02-01', value: 60 },
    { period: '2025-03-01', value: 0 },
  ];
  current = report;
  calls = mockApi((c) => {
    if (c.path === '/api/enpi' && c.method === 'GET') return { body: [enpi] };
    if (c.path === '/api/enpi/7/report') return { body: current };
    if (c.path === '/api/enpi/7/outputs') return { body: outputs };
    if (c.path.startsWith('/api/enpi/7/outputs/') && c.method === 'PUT') {
      return { body: { period: c.path.split('/').pop(), value: (c.body as { value: number }).value } };
    }
    if (c.path.startsWith('/api/enpi/7/outputs/') && c.method === 'DELETE') return { body: { ok: true } };
    if (c.path === '/api/regions') return { body: [] };
    if (c.path === '/api/filter-groups') return { body: [] };
    if (c.path === '/api/enpi/abilities')
      return {
        body: [
          { identifier: 'EP', name: '正向有功电能', unit: 'kWh', cumulative: true, things: 3 },
          { identifier: 'P', name: '有功功率', unit: 'kW', cumulative: false, things: 3 },
        ],
      };
    return undefined;
  });
});
afterEach(() => vi.unstubAllGlobals());

describe('the EnPI screen', { timeout: 30_000 }, () => {
  it('shows the model card, both charts and why a period has no EnPI', async () => {
    renderScreen(<EnpiScreen />, '/analysis/enpi');
    const model = await screen.findByTestId('enpi-model', {}, SLOW);
    expect(within(model).getByTestId('enpi-adequate').textContent).toBe('模型适用');
    expect(within(model).getByText('0.98')).toBeTruthy();
    expect(within(model).getByText('6.61 %')).toBeTruthy();
    expect(within(model).getByText('E = 123.46 + 15.50 × 产量')).toBeTruthy();
    const chart = screen.getByTestId('enpi-chart');
    expect(chart.getAttribute('data-labels')).toBe('2025-01,2025-02,2025-03');
    expect(JSON.parse(chart.getAttribute('data-values') as string)).toEqual([[20, 20, null]]);
    expect(screen.getByTestId('enpi-baseline-chart').getAttribute('data-names')).toBe(
      '实际能耗|预期能耗|累计节能 CUSUM',
    );
    const table = screen.getByTestId('enpi-periods');
    expect(within(table).getByText('产量为 0，EnPI 无定义')).toBeTruthy();
    expect(within(table).getByText('1,200.00')).toBeTruthy();
    const query = calls.find((c) => c.path === '/api/enpi/7/report')?.query;
    expect(query?.get('from')).toBe('2025-01-01');
  });

  it('says when there is no model, with the server reason', async () => {
    current = {
      ...report,
      model: null,
      modelError: { code: 'tooFewPoints', message: '基准期只有 2 个完整数据点，回归至少需要 4 个' },
    };
    renderScreen(<EnpiScreen />, '/analysis/enpi');
    const model = await screen.findByTestId('enpi-model', {}, SLOW);
    expect(within(model).getByText('无法建立基准模型')).toBeTruthy();
    expect(within(model).getByText('基准期只有 2 个完整数据点，回归至少需要 4 个')).toBeTruthy();
  });

  it('saves an edited output and removes one after confirmation', async () => {
    const toasts = recordToasts();
    renderScreen(<EnpiScreen />, '/analysis/enpi');
    // The cell shows the saved value once the entries have loaded.
    const field = () => screen.getByLabelText('产量录入 2025-02') as HTMLInputElement;
    await waitFor(() => expect(field().value).toBe('60.00'), SLOW);
    const input = field();
    fireEvent.change(input, { target: { value: '65' } });
    fireEvent.blur(input);
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT')).toMatchObject({
        path: '/api/enpi/7/outputs/2025-02-01',
        body: { value: 65 },
      }),
    );
    await waitFor(() => expect(toasts.map((x) => x.text)).toContain('已保存 2025-02 的产量'));

    const card = screen.getByTestId('enpi-outputs');
    const rowOf = within(card).getByText('2025-03').closest('tr') as HTMLElement;
    fireEvent.click(within(rowOf).getByRole('button', { name: '删除' }));
    expect(await screen.findByText('删除 2025-03 的产量？')).toBeTruthy();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(screen.getByTestId('confirm-delete-ok'));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'DELETE')?.path).toBe('/api/enpi/7/outputs/2025-03-01'),
    );
  });

  it("picks metrics from the chosen source's abilities by name and unit, not typed", async () => {
    renderScreen(<EnpiScreen />, '/analysis/enpi');
    fireEvent.click(await screen.findByRole('button', { name: '编辑' }, SLOW));
    const energy = await screen.findByTestId('enpi-energy-metric');
    // The saved EP reads as its ability's name and unit once the region's abilities are in.
    await waitFor(() => expect(energy.textContent).toContain('正向有功电能 (kWh)'));
    const asked = calls.find((c) => c.path === '/api/enpi/abilities')?.query;
    expect(asked?.get('resourceType')).toBe('region');
    expect(asked?.get('resourceId')).toBe('1');
    expect(screen.queryByDisplayValue('EP')).toBeNull();
  });

  it('clears a metric the newly chosen source lacks and says which one went', async () => {
    const node = (id: number, name: string) => ({
      id,
      parentId: null,
      name,
      description: '',
      thingId: null,
      resourceType: 'region',
      dimensions: [],
      level: 1,
      sort: id,
      isClick: true,
      children: [],
    });
    calls = mockApi((c) => {
      if (c.path === '/api/enpi' && c.method === 'GET') return { body: [enpi] };
      if (c.path === '/api/enpi/7/report') return { body: current };
      if (c.path === '/api/enpi/7/outputs') return { body: outputs };
      if (c.path === '/api/regions') return { body: [node(1, '一号车间'), node(2, '锅炉房')] };
      if (c.path === '/api/filter-groups') return { body: [] };
      if (c.path === '/api/enpi/abilities')
        return {
          body:
            c.query.get('resourceId') === '2'
              ? [{ identifier: 'gas', name: '天然气用量', unit: 'm³', cumulative: true, things: 1 }]
              : [{ identifier: 'EP', name: '正向有功电能', unit: 'kWh', cumulative: true, things: 3 }],
        };
      return undefined;
    });
    renderScreen(<EnpiScreen />, '/analysis/enpi');
    fireEvent.click(await screen.findByRole('button', { name: '编辑' }, SLOW));
    const energy = await screen.findByTestId('enpi-energy-metric');
    await waitFor(() => expect(energy.textContent).toContain('正向有功电能 (kWh)'));
    const source = screen.getByTestId('enpi-energy');
    fireEvent.mouseDown(source.querySelector('.ant-select-selector') ?? source);
    fireEvent.click(await screen.findByTitle('锅炉房'));
    // Once the boiler room's abilities are in, EP (and its name, which the select remembered) goes.
    const dropped = await screen.findByTestId('enpi-energy-metric-dropped', {}, SLOW);
    expect(dropped.textContent).toBe('所选来源没有指标「EP」，请重新选择');
    expect(energy.textContent).toBe('选择指标');
  });

  it('validates the definition form in the user language', async () => {
    renderScreen(<EnpiScreen />, '/analysis/enpi');
    fireEvent.click(await screen.findByTestId('enpi-create', {}, SLOW));
    fireEvent.click(await screen.findByRole('button', { name: '确 定' }));
    expect(await screen.findByText('请输入名称')).toBeTruthy();
    expect(await screen.findByText('请选择能耗来源')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });
});

describe('EnPI form and chart helpers', () => {
  it('round-trips a definition through the form', () => {
    expect(inputOf(valuesOf(enpi))).toEqual({
      name: enpi.name,
      description: '',
      energy: enpi.energy,
      output: enpi.output,
      outputUnit: '件',
      temperature: enpi.temperature,
      period: 'month',
      baselineStart: '2025-01-01',
      baselineEnd: '2025-02-28',
      variables: ['output'],
    });
  });

  it('asks for a temperature and its base before degree days', () => {
    expect(variableProblem({ variables: [] })).toBe('enpi.required.variables');
    expect(variableProblem({ variables: ['hdd'] })).toBe('enpi.required.temperature');
    expect(
      variableProblem({
        variables: ['cdd'],
        temperatureTarget: 'thing:3',
        temperatureMetric: 'T',
        coolingBase: null,
      }),
    ).toBe('enpi.required.coolingBase');
    expect(
      variableProblem({
        variables: ['hdd'],
        temperatureTarget: 'thing:3',
        temperatureMetric: 'T',
        heatingBase: 18,
      }),
    ).toBeNull();
  });

  it('draws the EnPI, the expected energy and the CUSUM rounded to 2 decimals, the baseline shaded', () => {
    const labels = { enpi: 'EnPI', unit: 'kWh/件', baseline: 'B', actual: 'A', expected: 'E', cusum: 'C' };
    const e = enpiChartOption(report, labels) as unknown as {
      series: { data: (number | null)[]; markArea: { data: { xAxis: string }[][] } }[];
    };
    expect(e.series[0]?.data).toEqual([20, 20, null]);
    expect(e.series[0]?.markArea.data).toEqual([[{ xAxis: '2025-01' }, { xAxis: '2025-02' }]]);
    const b = baselineChartOption(report, labels) as unknown as { series: { data: (number | null)[] }[] };
    expect(b.series.map((s) => s.data)).toEqual([
      [1000, 1200, 900],
      [1000, 1000, 1000],
      [null, null, 100],
    ]);
  });
});
