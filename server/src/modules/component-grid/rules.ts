import {
  type ComponentLayout,
  type EffectiveAbility,
  REPORT_GRID_COLS,
  type ReportComponentInput,
} from '@kilowatch/contract';
import { AppError } from '../../errors.ts';
import type { Catalog } from '../catalog/index.ts';
import { compileFormula, FormulaError } from '../query/index.ts';

/**
 * The component model's rules, shared by KPI reports and the workshop board's pages
 * (docs/board.md): what a component may look at, and where it goes on the 12-column grid.
 */

/** Default place of a new component: below the others, half the grid wide. */
const NEW_WIDTH = 6;
const NEW_HEIGHT = 8;

/** A component's thing or region must exist and know each metric; formulas must parse. */
export async function checkComponent(
  catalog: Pick<Catalog, 'select' | 'categoryAbilities'>,
  input: Pick<ReportComponentInput, 'params' | 'metrics'>,
): Promise<void> {
  const { thingId, regionId } = input.params;
  if ((thingId == null) === (regionId == null)) {
    throw new AppError('UNPROCESSABLE', 422, {}, { message: 'reports.noTarget' });
  }
  for (const m of input.metrics) {
    if (!m.formula?.trim()) continue;
    try {
      compileFormula(m.formula);
    } catch (error) {
      if (!(error instanceof FormulaError)) throw error;
      throw new AppError(
        'UNPROCESSABLE',
        422,
        { metric: m.name || m.identifier, detail: error.message },
        { message: 'reports.badFormula' },
      );
    }
  }
  const resourceType = thingId != null ? ('thing' as const) : ('region' as const);
  const id = (thingId ?? regionId) as number;
  for (const m of input.metrics) {
    const selection = await catalog.select({
      resourceType,
      id,
      successor: true,
      ...(resourceType === 'region' && m.categoryId != null ? { categoryId: m.categoryId } : {}),
    });
    const known = new Set<string>();
    for (const list of selection.abilities.values())
      for (const a of list as EffectiveAbility[]) known.add(a.identifier);
    if (known.size === 0 && m.categoryId != null) {
      for (const a of await catalog.categoryAbilities(m.categoryId)) known.add(a.identifier);
    }
    // A region with nothing bound yet has nothing to check against; its charts stay empty.
    if ((resourceType === 'thing' || known.size > 0) && !known.has(m.identifier)) {
      throw new AppError(
        'UNPROCESSABLE',
        422,
        { metric: m.identifier, resource: resourceType },
        { message: 'query.unknownMetric' },
      );
    }
  }
}

/**
 * Where a new component goes: beside the last row's components when half the grid is free
 * there, else below everything, half the grid wide.
 */
export function nextPlace(taken: readonly ComponentLayout[]): ComponentLayout {
  const bottom = taken.reduce((max, l) => Math.max(max, l.y + l.h), 0);
  const lastRow = taken.reduce((max, l) => Math.max(max, l.y), 0);
  const right = taken.filter((l) => l.y + l.h > lastRow).reduce((max, l) => Math.max(max, l.x + l.w), 0);
  return taken.length > 0 && right + NEW_WIDTH <= REPORT_GRID_COLS
    ? { x: right, y: lastRow, w: NEW_WIDTH, h: NEW_HEIGHT }
    : { x: 0, y: bottom, w: NEW_WIDTH, h: NEW_HEIGHT };
}

/** A place kept inside the grid: a component wider than what is left of its row moves left. */
export function fitted(layout: ComponentLayout): ComponentLayout {
  const w = Math.min(layout.w, REPORT_GRID_COLS);
  return { ...layout, w, x: Math.min(layout.x, REPORT_GRID_COLS - w) };
}
