/**
 * The report component model's console side, shared by the KPI reports and the workshop board:
 * the 12-column grid (drag and resize), a component's card (line, pie, bar, bar-accumulation,
 * operation over a period of the plant calendar, with its comparison) and the add/edit dialog.
 */
export { CardActions, CardTitle } from './CardTools.tsx';
export { ComponentCard } from './ComponentCard.tsx';
export { regionOptions } from './ComponentDialog.tsx';
export { chartHeight, ReportGrid } from './ReportGrid.tsx';
export { useComponentEditor } from './use-component-editor.tsx';
