import type { DiagramGraph, DiagramNode, EffectiveAbility } from '@kilowatch/contract';
import { describe, expect, it } from 'vitest';
import { contentBox, detailAt, findNodes, fitScale, openingView, valueLines } from './viewport.ts';

const feeder = (i: number, y = 500): DiagramNode => ({
  id: `f${i}`,
  symbol: 'feeder',
  x: 80 + i * 170,
  y,
  label: `${i}#配电柜`,
});

/** The demo's shape: a supply down the middle of a busbar with `count` feeders under it. */
function section(count: number): DiagramGraph {
  const width = count * 170 + 120;
  return {
    nodes: [
      { id: 'in', symbol: 'incoming', x: width / 2, y: 0, label: '10kV 进线1' },
      { id: 'bus', symbol: 'busbar', x: 20, y: 410, width, label: '0.4kV I段母线' },
      ...Array.from({ length: count }, (_, i) => feeder(i + 1)),
    ],
    edges: [],
    thresholds: { lossPct: 5, imbalancePct: 5 },
  };
}

const screen = { width: 1150, height: 700 };

describe('level of detail', () => {
  it('draws values from 60 %, names from 40 %, the outline below', () => {
    expect(detailAt(1)).toBe('full');
    expect(detailAt(0.6)).toBe('full');
    expect(detailAt(0.59)).toBe('names');
    expect(detailAt(0.4)).toBe('names');
    expect(detailAt(0.39)).toBe('outline');
  });
});

describe('opening view', () => {
  it('fits a diagram that is readable when fitted', () => {
    expect(openingView(section(4), screen)).toEqual({ kind: 'fit' });
    expect(openingView({ nodes: [] }, screen)).toEqual({ kind: 'fit' });
  });

  it('opens a large one at 100 % on its supply, not fitted to unreadable', () => {
    // ~100 feeders: fitted, the 12 px names would be under 3 px.
    const big = section(100);
    expect(fitScale(contentBox(big.nodes)!, screen)).toBeLessThan(0.25);
    expect(openingView(big, screen)).toEqual({
      kind: 'focus',
      scale: 1,
      point: { x: big.nodes[0]!.x + 20, y: 0 },
    });
  });
});

describe('find', () => {
  const nodes = [feeder(10), feeder(2), feeder(1), { ...feeder(3), label: 'QF1-3' }];

  it('matches names case-insensitively, in natural order', () => {
    expect(findNodes(nodes, '配电柜').map((n) => n.label)).toEqual(['1#配电柜', '2#配电柜', '10#配电柜']);
    expect(findNodes(nodes, 'qf').map((n) => n.id)).toEqual(['f3']);
    expect(findNodes(nodes, '  ')).toEqual([]);
  });
});

describe('value labels', () => {
  const ability = (
    identifier: string,
    name: string,
    unit: string,
    enumOptions: EffectiveAbility['enumOptions'] = [],
  ) => ({ identifier, name, unit, enumOptions }) as EffectiveAbility;
  const node: DiagramNode = {
    ...feeder(1),
    binding: { thingId: 1, shown: ['Pin', 'loadRate', 'run', 'x'] },
  };
  const latest = (_: number, metric: string) => ({ Pin: 512.345, loadRate: 61.2, run: 1 })[metric];

  it("labels each value with its ability's name and unit, not its identifier", () => {
    const abilities = [
      ability('Pin', '进线有功功率', 'kW'),
      ability('loadRate', '负载率', '%'),
      ability('run', '运转状态', '', [
        { value: '0', label: '停机' },
        { value: '1', label: '运行' },
      ]),
    ];
    expect(valueLines(node, abilities, latest)).toEqual([
      '进线有功功率 512.35 kW',
      '负载率 61.2 %',
      '运转状态 运行',
      'x —',
    ]);
  });

  it('falls back to the identifier while the abilities are loading', () => {
    expect(valueLines(node, [], latest)[0]).toBe('Pin 512.35');
  });
});
