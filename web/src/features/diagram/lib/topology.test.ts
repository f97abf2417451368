import type { DiagramGraph, DiagramNode } from '@kilowatch/contract';
import { describe, expect, it } from 'vitest';
import { busbarMembers, energise, type Latest, stateOf } from './topology.ts';

const node = (
  id: string,
  symbol: DiagramNode['symbol'],
  y: number,
  binding?: DiagramNode['binding'],
): DiagramNode => ({
  id,
  symbol,
  x: 0,
  y,
  label: id,
  ...(binding ? { binding } : {}),
});
const wire = (source: string, target: string) => ({ id: `${source}-${target}`, source, target });

// incoming → QF1 → bus I → QF2 → feeder 1; bus I → QS3 → feeder 2; meter M on feeder 1's path.
const graph: Pick<DiagramGraph, 'nodes' | 'edges'> = {
  nodes: [
    node('in', 'incoming', 0, { thingId: 1, shown: [], power: 'P' }),
    node('qf1', 'breaker', 80, { thingId: 9, shown: [], status: 'Q1' }),
    node('bus', 'busbar', 160),
    node('qf2', 'breaker', 200, { thingId: 9, shown: [], status: 'Q2', closedValue: 'true' }),
    node('m', 'meter', 260, { thingId: 2, shown: ['P'], power: 'P' }),
    node('f1', 'feeder', 320, { thingId: 2, shown: [], power: 'P' }),
    node('qs3', 'disconnector', 200),
    node('f2', 'feeder', 260, { thingId: 3, shown: [], power: 'P', flow: 'out' }),
  ],
  edges: [
    wire('in', 'qf1'),
    wire('qf1', 'bus'),
    wire('bus', 'qf2'),
    wire('qf2', 'm'),
    wire('m', 'f1'),
    wire('bus', 'qs3'),
    wire('qs3', 'f2'),
  ],
};

const values =
  (map: Record<string, number | string>): Latest =>
  (thingId, metric) =>
    map[`${thingId}.${metric}`];

describe('switch state', () => {
  it('reads the bound status against its closed value; unbound switches are closed, silent ones unknown', () => {
    const latest = values({ '9.Q1': 1, '9.Q2': 'false' });
    expect(stateOf(graph.nodes[1]!, latest)).toBe('closed');
    expect(stateOf(graph.nodes[3]!, latest)).toBe('open');
    expect(stateOf(graph.nodes[6]!, latest)).toBe('closed');
    expect(stateOf(graph.nodes[1]!, values({}))).toBe('unknown');
    // A boolean sent as 1 matches a closed value of true.
    expect(stateOf(graph.nodes[3]!, values({ '9.Q2': 1 }))).toBe('closed');
  });
});

describe('energised sections', () => {
  it('colours everything reached from the source through closed switches', () => {
    const live = energise(graph, values({ '9.Q1': 1, '9.Q2': 1 }));
    expect([...live.nodes].sort()).toEqual(['bus', 'f1', 'f2', 'in', 'm', 'qf1', 'qf2', 'qs3']);
    expect(live.edges.size).toBe(7);
  });

  it('stops at an open breaker: the breaker is live on its source side, what is behind it is dead', () => {
    const live = energise(graph, values({ '9.Q1': 1, '9.Q2': 0 }));
    expect(live.nodes.has('qf2')).toBe(true);
    expect(live.nodes.has('m')).toBe(false);
    expect(live.nodes.has('f1')).toBe(false);
    expect(live.edges.has('qf2-m')).toBe(false);
    expect(live.nodes.has('f2')).toBe(true);
  });

  it('paints nothing past a switch whose state is unknown, and nothing at all when the incoming breaker is open', () => {
    expect(energise(graph, values({})).nodes).toEqual(new Set(['in', 'qf1']));
    expect(energise(graph, values({ '9.Q1': 0, '9.Q2': 1 })).nodes.has('bus')).toBe(false);
  });
});

describe('busbar members', () => {
  it('takes the first symbol with a power metric on each path, its side from where it is drawn or its flow', () => {
    const members = busbarMembers(graph, 'bus').map((m) => [m.node.id, m.flow]);
    expect(members).toEqual([
      ['in', 'in'],
      ['m', 'out'],
      ['f2', 'out'],
    ]);
  });
});
