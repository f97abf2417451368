/**
 * The shared chart layer: ECharts wrappers (trimmed ECharts via echarts-for-react/esm/core),
 * pure series/period/option helpers and the metric settings dialog (its data comes from api/).
 * Importing this index pulls ECharts in: import it from lazily loaded screens only
 * (see lib/lazy-screen.tsx).
 */
export * from './abilities.ts';
export * from './alarm-marks.ts';
export * from './ChartCard.tsx';
export * from './Charts.tsx';
export * from './export/ExportMenu.tsx';
export * from './export/sheet.ts';
export * from './labels.ts';
export * from './MetricSettingsDialog.tsx';
export * from './metrics.ts';
export * from './options.ts';
export * from './period.ts';
export * from './rows.ts';
export * from './series.ts';
export * from './theme.ts';
export * from './top-n.ts';
export * from './use-chart-theme.ts';
