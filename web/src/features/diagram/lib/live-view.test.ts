import type { DiagramGraph } from '@kilowatch/contract';
import { describe, expect, it } from 'vitest';
import { diagramView } from './live-view.ts';
import type { Latest } from './topology.ts';

// The worked example of docs/electric-diagram.md drawn as a diagram: transformer above the busbar,
// three feeders below it, feeder 1's meter with the example's phase voltages and currents.
const graph: DiagramGraph = {
  nodes: [
    { id: 'in', symbol: 'incoming', x: 0, y: 0, label: '进线' },
    {
      id: 'tr',
      symbol: 'transformer',
      x: 0,
      y: 80,
      label: '1#',
      binding: { thingId: 1, shown: ['P'], power: 'P' },
    },
    { id: 'bus', symbol: 'busbar', x: -100, y: 200, width: 400, label: 'I' },
    {
      id: 'f1',
      symbol: 'feeder',
      x: -80,
      y: 260,
      label: 'f1',
      binding: { thingId: 2, shown: ['P'], power: 'P' },
    },
    { id: 'f2', symbol: 'feeder', x: 0, y: 260, label: 'f2', binding: { thingId: 3, shown: [], power: 'P' } },
    {
      id: 'f3',
      symbol: 'feeder',
      x: 80,
      y: 260,
      label: 'f3',
      binding: { thingId: 4, shown: [], power: 'P' },
    },
  ],
  edges: [
    { id: 'a', source: 'in', target: 'tr' },
    { id: 'b', source: 'tr', target: 'bus' },
    { id: 'c', source: 'bus', target: 'f1' },
    { id: 'd', source: 'bus', target: 'f2' },
    { id: 'e', source: 'bus', target: 'f3' },
  ],
  thresholds: { lossPct: 5, imbalancePct: 2 },
};

const values: Record<string, number | string> = {
  '1.P': 812.4,
  '2.P': 305.0,
  '3.P': 268.7,
  '4.P': '201.5',
  '2.Ua': 231.0,
  '2.Ub': 226.5,
  '2.Uc': 228.0,
  '2.Ia': 412,
  '2.Ib': 380,
  '2.Ic': 398,
};
const latest: Latest = (thingId, metric) => values[`${thingId}.${metric}`];

describe('what the diagram shows', () => {
  it('puts the loss on the busbar and the imbalance on the meter, flagged by the thresholds', () => {
    const view = diagramView(graph, latest, new Set([3]));
    const bus = view.nodes.get('bus')!;
    expect(bus.loss!.lossKw).toBeCloseTo(37.2, 9);
    expect(bus.loss!.lossPct).toBeCloseTo(4.579, 3);
    expect(bus.loss!.flagged).toBe(false);
    const f1 = view.nodes.get('f1')!;
    expect(f1.imbalance.voltage!.pct).toBeCloseTo(1.0941, 4);
    expect(f1.imbalance.voltage!.flagged).toBe(false);
    expect(f1.imbalance.current!.flagged).toBe(true);
    expect(view.nodes.get('f2')!.imbalance).toEqual({});
    // Feeder 2's thing has an active alarm.
    expect([...view.nodes].filter(([, v]) => v.alarm).map(([id]) => id)).toEqual(['f2']);
    expect([...view.nodes.values()].every((v) => v.energised)).toBe(true);
  });

  it('flags a loss above its threshold and shows none while a feeder is silent', () => {
    const tighter = { ...graph, thresholds: { lossPct: 4, imbalancePct: 5 } };
    expect(diagramView(tighter, latest, new Set()).nodes.get('bus')!.loss!.flagged).toBe(true);
    const silent: Latest = (thingId, metric) => (thingId === 4 ? undefined : latest(thingId, metric));
    expect(diagramView(graph, silent, new Set()).nodes.get('bus')!.loss).toBeNull();
  });
});
