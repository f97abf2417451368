import {
  EXPLORE_QUICK_RANGES,
  type ExploreQuickRange,
  type ExploreRange,
  type ExploreSeries,
  type ExploreState,
  MAX_EXPLORE_PANELS,
  MAX_EXPLORE_SERIES,
} from '@kilowatch/contract';

/**
 * The Explore screen's state (docs/explore.md): panels of series over one range, kept in the
 * address so a link opens the same charts. Pure, so the address round trip is tested directly.
 *
 * Address: `range=8h` or `from=<ms>&to=<ms>`; one `p=` per panel, its series joined by commas,
 * each `t12~P` (thing 12, ability P) or `r3~EP` (region 3); `view=<id>` when a saved view is open.
 * `~` and `,` never occur in an ability identifier (contract IDENTIFIER_PATTERN).
 */

const QUICK_RANGE_MS: Record<ExploreQuickRange, number> = {
  '15m': 15 * 60_000,
  '1h': 3600_000,
  '8h': 8 * 3600_000,
  '24h': 24 * 3600_000,
  '7d': 7 * 24 * 3600_000,
  '30d': 30 * 24 * 3600_000,
};

export const DEFAULT_RANGE: ExploreRange = { last: '1h' };

/** A zoom never narrows below this: a minute is the finest bucket most series are kept at. */
export const MIN_ZOOM_MS = 60_000;

export const emptyState = (): ExploreState => ({ panels: [], range: DEFAULT_RANGE });

export const isRelative = (range: ExploreRange): range is { last: ExploreQuickRange } => 'last' in range;

/** [start, end) in ms: the span ending at `now`, or the fixed range. */
export function resolveRange(range: ExploreRange, now: number): { start: number; end: number } {
  if (isRelative(range)) return { start: now - QUICK_RANGE_MS[range.last], end: now };
  return { start: range.start, end: range.end };
}

export const seriesKey = (s: ExploreSeries): string =>
  `${s.resourceType === 'thing' ? 't' : 'r'}${s.resourceId}~${s.metric}`;

const SERIES_TEXT = /^([tr])([1-9][0-9]{0,9})~([A-Za-z][A-Za-z0-9_.:-]{0,63})$/;

/** `t12~P` → the series; null for anything else (a hand-edited link is read, never trusted). */
export function parseSeries(text: string): ExploreSeries | null {
  const m = SERIES_TEXT.exec(text.trim());
  if (!m) return null;
  const id = Number(m[2]);
  if (id > 2_147_483_647) return null;
  return { resourceType: m[1] === 't' ? 'thing' : 'region', resourceId: id, metric: m[3]! };
}

const isQuick = (v: string | null): v is ExploreQuickRange =>
  v !== null && (EXPLORE_QUICK_RANGES as readonly string[]).includes(v);

/** Reads the range from the address; the default hour when it says nothing usable. */
function parseRange(params: URLSearchParams): ExploreRange {
  const from = Number(params.get('from'));
  const to = Number(params.get('to'));
  if (params.get('from') && params.get('to') && Number.isSafeInteger(from) && Number.isSafeInteger(to)) {
    if (from >= 0 && to > from) return { start: from, end: to };
  }
  const last = params.get('range');
  return isQuick(last) ? { last } : DEFAULT_RANGE;
}

/** The state an address holds, cut to the contract's limits; the open view's id if any. */
export function parseState(params: URLSearchParams): { state: ExploreState; viewId: number | null } {
  const panels = params
    .getAll('p')
    .slice(0, MAX_EXPLORE_PANELS)
    .map((text) => ({ series: dedupe(text.split(',').map(parseSeries)).slice(0, MAX_EXPLORE_SERIES) }));
  const view = Number(params.get('view'));
  return {
    state: { panels, range: parseRange(params) },
    viewId: Number.isSafeInteger(view) && view > 0 ? view : null,
  };
}

const dedupe = (list: (ExploreSeries | null)[]): ExploreSeries[] => {
  const seen = new Set<string>();
  return list.filter((s): s is ExploreSeries => {
    if (!s || seen.has(seriesKey(s))) return false;
    seen.add(seriesKey(s));
    return true;
  });
};

/** The address of a state (and the open view): what `parseState` reads back. */
export function stateParams(state: ExploreState, viewId: number | null = null): URLSearchParams {
  const params = new URLSearchParams();
  if (isRelative(state.range)) params.set('range', state.range.last);
  else {
    params.set('from', String(state.range.start));
    params.set('to', String(state.range.end));
  }
  // An empty panel still counts: the user added it to fill it next.
  for (const panel of state.panels) params.append('p', panel.series.map(seriesKey).join(','));
  if (viewId !== null) params.set('view', String(viewId));
  return params;
}

export const addPanel = (state: ExploreState): ExploreState =>
  state.panels.length >= MAX_EXPLORE_PANELS ? state : { ...state, panels: [...state.panels, { series: [] }] };

export const removePanel = (state: ExploreState, index: number): ExploreState => ({
  ...state,
  panels: state.panels.filter((_, i) => i !== index),
});

/** Moves a panel one place up (-1) or down (+1); at an end it stays. */
export function movePanel(state: ExploreState, index: number, by: -1 | 1): ExploreState {
  const to = index + by;
  if (to < 0 || to >= state.panels.length) return state;
  const panels = [...state.panels];
  [panels[index], panels[to]] = [panels[to]!, panels[index]!];
  return { ...state, panels };
}

/** Adds series to a panel, each once, up to the limit (the rest are left out). */
export function addSeries(state: ExploreState, index: number, added: readonly ExploreSeries[]): ExploreState {
  return {
    ...state,
    panels: state.panels.map((p, i) =>
      i === index ? { series: dedupe([...p.series, ...added]).slice(0, MAX_EXPLORE_SERIES) } : p,
    ),
  };
}

export const removeSeries = (state: ExploreState, index: number, key: string): ExploreState => ({
  ...state,
  panels: state.panels.map((p, i) =>
    i === index ? { series: p.series.filter((s) => seriesKey(s) !== key) } : p,
  ),
});

/**
 * A drag over a chart: the range narrows to the dragged span (at least MIN_ZOOM_MS, kept around
 * its middle) and the range it replaced goes on the back stack.
 */
export function zoomIn(
  current: ExploreRange,
  back: readonly ExploreRange[],
  start: number,
  end: number,
): { range: ExploreRange; back: ExploreRange[] } {
  let from = Math.round(Math.min(start, end));
  let to = Math.round(Math.max(start, end));
  if (to - from < MIN_ZOOM_MS) {
    const middle = (from + to) / 2;
    from = Math.round(middle - MIN_ZOOM_MS / 2);
    to = from + MIN_ZOOM_MS;
  }
  return { range: { start: from, end: to }, back: [...back, current] };
}

/** Back one zoom: the range before the last zoom, or nothing to go back to. */
export function zoomBack(
  back: readonly ExploreRange[],
): { range: ExploreRange; back: ExploreRange[] } | null {
  const range = back.at(-1);
  return range ? { range, back: back.slice(0, -1) } : null;
}

/** Same panels and range (a saved view against what is on screen). */
export const sameState = (a: ExploreState, b: ExploreState): boolean =>
  stateParams(a).toString() === stateParams(b).toString();

/** Every series of the state, each once (the metadata and alarm reads). */
export const allSeries = (state: ExploreState): ExploreSeries[] =>
  dedupe(state.panels.flatMap((p) => p.series));
