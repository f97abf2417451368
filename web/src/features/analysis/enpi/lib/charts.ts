import type { EnpiReport } from '@kilowatch/contract';
import type { ChartOption } from '../../../../components/charts/index.ts';

const round2 = (v: number | null) => (v === null ? null : Math.round(v * 100) / 100);

/** The baseline periods as a shaded area behind a chart's series. */
function baselineArea(report: EnpiReport, label: string) {
  const inside = report.periods.filter((p) => p.inBaseline);
  const first = inside[0];
  const last = inside[inside.length - 1];
  if (!first || !last) return undefined;
  return {
    silent: true,
    itemStyle: { color: 'rgba(22, 119, 255, 0.06)' },
    label: { show: true, position: 'insideTop' as const, formatter: label, color: '#8c8c8c' },
    data: [[{ xAxis: first.label }, { xAxis: last.label }]],
  };
}

const axis = (report: EnpiReport) => ({
  type: 'category' as const,
  data: report.periods.map((p) => p.label),
  axisTick: { alignWithLabel: true },
});

const valueFormatter = (v: unknown) => (typeof v === 'number' ? v.toFixed(2) : '—');

/** EnPI per period as bars; a period without one (output 0, no data) has no bar. */
export function enpiChartOption(
  report: EnpiReport,
  labels: { enpi: string; unit: string; baseline: string },
): ChartOption {
  return {
    animation: false,
    grid: { left: 64, right: 24, top: 40, bottom: 56 },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter },
    xAxis: axis(report),
    yAxis: { type: 'value', name: labels.unit },
    dataZoom: [{ type: 'inside' }, { type: 'slider', height: 18, bottom: 8 }],
    series: [
      {
        name: labels.enpi,
        type: 'bar',
        barMaxWidth: 24,
        data: report.periods.map((p) => round2(p.enpi)),
        markArea: baselineArea(report, labels.baseline),
      },
    ],
  } as ChartOption;
}

/** Actual energy (bars), the baseline's expected energy (line) and the CUSUM (line, right axis). */
export function baselineChartOption(
  report: EnpiReport,
  labels: { actual: string; expected: string; cusum: string; baseline: string },
): ChartOption {
  return {
    animation: false,
    grid: { left: 72, right: 72, top: 48, bottom: 56 },
    legend: { top: 0 },
    tooltip: { trigger: 'axis', valueFormatter },
    xAxis: axis(report),
    yAxis: [
      { type: 'value', name: report.energyUnit },
      { type: 'value', name: labels.cusum, splitLine: { show: false } },
    ],
    dataZoom: [{ type: 'inside' }, { type: 'slider', height: 18, bottom: 8 }],
    series: [
      {
        name: labels.actual,
        type: 'bar',
        barMaxWidth: 24,
        data: report.periods.map((p) => round2(p.energy)),
        markArea: baselineArea(report, labels.baseline),
      },
      {
        name: labels.expected,
        type: 'line',
        connectNulls: false,
        data: report.periods.map((p) => round2(p.expected)),
      },
      {
        name: labels.cusum,
        type: 'line',
        yAxisIndex: 1,
        step: false,
        lineStyle: { type: 'dashed' },
        data: report.periods.map((p) => round2(p.cusum)),
      },
    ],
  } as ChartOption;
}
