/**
 * The report component model's console side, shared by the KPI reports and the workshop board:
 * the 12-column grid (drag and resize), a component's card (line, pie, bar, bar-accumulation,
 * operation over a period of the plant calendar, with its comparison) and the add/edit dialog.
 */
export { CardActions, CardTitle } from './CardTools.tsx';
export { ComponentCard, type ComponentCardProps, type GridComponent } from './ComponentCard.tsx';
export { ComponentDialog, type ComponentDialogProps, regionOptions } from './ComponentDialog.tsx';
export { componentSeries, type MetricAnswer, metricTotals } from './component-series.ts';
export { chartHeight, ReportGrid, type ReportGridProps, ROW_HEIGHT } from './ReportGrid.tsx';
export { KPI_REFRESH_MS, useComponentData } from './use-component-data.ts';
export { type ComponentEditorOptions, useComponentEditor } from './use-component-editor.tsx';
