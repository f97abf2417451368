import { MAX_EXPLORE_PANELS, MAX_EXPLORE_SERIES } from '@kilowatch/contract';
import { describe, expect, it } from 'vitest';
import {
  addPanel,
  addSeries,
  DEFAULT_RANGE,
  emptyState,
  MIN_ZOOM_MS,
  movePanel,
  parseSeries,
  parseState,
  removePanel,
  removeSeries,
  resolveRange,
  sameState,
  stateParams,
  zoomBack,
  zoomIn,
} from './state.ts';

const t = (id: number, metric: string) => ({ resourceType: 'thing' as const, resourceId: id, metric });
const r = (id: number, metric: string) => ({ resourceType: 'region' as const, resourceId: id, metric });

describe('explore state in the address', () => {
  it('round-trips panels, series, a quick range and the open view', () => {
    const state = {
      panels: [{ series: [t(12, 'P'), r(3, 'EP')] }, { series: [] }, { series: [t(5, 'Ua.rms:1')] }],
      range: { last: '8h' as const },
    };
    const params = stateParams(state, 42);
    expect(params.get('range')).toBe('8h');
    expect(params.getAll('p')).toEqual(['t12~P,r3~EP', '', 't5~Ua.rms:1']);
    expect(parseState(new URLSearchParams(params.toString()))).toEqual({ state, viewId: 42 });
  });

  it('round-trips an absolute range', () => {
    const state = { panels: [{ series: [t(1, 'T')] }], range: { start: 1_000_000, end: 2_000_000 } };
    const params = stateParams(state);
    expect(params.get('from')).toBe('1000000');
    expect(params.has('range')).toBe(false);
    expect(parseState(params)).toEqual({ state, viewId: null });
  });

  it('reads a hand-edited link without trusting it', () => {
    const params = new URLSearchParams();
    params.set('range', '2h');
    params.set('view', '-3');
    params.append('p', 't1~P,x9~Q,t0~P,t1~P,r2~<script>,t2~T');
    for (let i = 0; i < MAX_EXPLORE_PANELS + 2; i++) params.append('p', 't1~P');
    const { state, viewId } = parseState(params);
    expect(state.range).toEqual(DEFAULT_RANGE);
    expect(viewId).toBeNull();
    expect(state.panels).toHaveLength(MAX_EXPLORE_PANELS);
    expect(state.panels[0]!.series).toEqual([t(1, 'P'), t(2, 'T')]);
  });

  it('falls back to the quick range when from/to run backwards or are not numbers', () => {
    expect(parseState(new URLSearchParams('from=5&to=4&range=24h')).state.range).toEqual({ last: '24h' });
    expect(parseState(new URLSearchParams('from=a&to=9')).state.range).toEqual(DEFAULT_RANGE);
  });

  it('parses one series or refuses it', () => {
    expect(parseSeries('r7~EP')).toEqual(r(7, 'EP'));
    expect(parseSeries('t99999999999~P')).toBeNull();
    expect(parseSeries('t1~')).toBeNull();
    expect(parseSeries('t1~1P')).toBeNull();
  });
});

describe('explore panels', () => {
  it('adds panels up to the limit, moves and removes them', () => {
    let state = emptyState();
    for (let i = 0; i < MAX_EXPLORE_PANELS + 1; i++) state = addPanel(state);
    expect(state.panels).toHaveLength(MAX_EXPLORE_PANELS);
    state = addSeries(state, 1, [t(1, 'P')]);
    state = movePanel(state, 1, -1);
    expect(state.panels[0]!.series).toEqual([t(1, 'P')]);
    expect(movePanel(state, 0, -1)).toBe(state);
    state = removePanel(state, 0);
    expect(state.panels).toHaveLength(MAX_EXPLORE_PANELS - 1);
    expect(state.panels.every((p) => p.series.length === 0)).toBe(true);
  });

  it('adds each series once, up to the limit, and removes one by key', () => {
    let state = addPanel(emptyState());
    state = addSeries(state, 0, [t(1, 'P'), t(1, 'P'), t(2, 'P')]);
    expect(state.panels[0]!.series).toEqual([t(1, 'P'), t(2, 'P')]);
    state = addSeries(
      state,
      0,
      Array.from({ length: 30 }, (_, i) => t(i + 10, 'P')),
    );
    expect(state.panels[0]!.series).toHaveLength(MAX_EXPLORE_SERIES);
    state = removeSeries(state, 0, 't2~P');
    expect(state.panels[0]!.series.map((s) => s.resourceId).slice(0, 2)).toEqual([1, 10]);
  });
});

describe('explore range and zoom', () => {
  it('resolves a quick range against now and keeps a fixed one', () => {
    expect(resolveRange({ last: '8h' }, 10 * 3600_000)).toEqual({ start: 2 * 3600_000, end: 10 * 3600_000 });
    expect(resolveRange({ start: 1, end: 2 }, 99)).toEqual({ start: 1, end: 2 });
  });

  it('zooms to the dragged span, either way round, and goes back step by step', () => {
    const first = zoomIn({ last: '8h' }, [], 5_000_000, 2_000_000);
    expect(first.range).toEqual({ start: 2_000_000, end: 5_000_000 });
    expect(first.back).toEqual([{ last: '8h' }]);
    const second = zoomIn(first.range, first.back, 3_000_000, 4_000_000);
    expect(second.back).toEqual([{ last: '8h' }, { start: 2_000_000, end: 5_000_000 }]);
    const back = zoomBack(second.back);
    expect(back).toEqual({ range: { start: 2_000_000, end: 5_000_000 }, back: [{ last: '8h' }] });
    expect(zoomBack(zoomBack(back!.back)!.back)).toBeNull();
  });

  it('never zooms below a minute, keeping the middle of a narrow drag', () => {
    const { range } = zoomIn({ last: '1h' }, [], 1_000_000, 1_010_000);
    expect(range).toEqual({ start: 1_005_000 - MIN_ZOOM_MS / 2, end: 1_005_000 + MIN_ZOOM_MS / 2 });
  });

  it('tells a changed state from a saved one', () => {
    const saved = addSeries(addPanel(emptyState()), 0, [t(1, 'P')]);
    expect(sameState(saved, { ...saved, panels: [{ series: [t(1, 'P')] }] })).toBe(true);
    expect(sameState(saved, { ...saved, range: { last: '8h' } })).toBe(false);
  });
});
