import type { Cabinet, Category, RegionNode } from '@kilowatch/contract';
import { DEFAULT_HISTORY_HOURS } from '@kilowatch/contract';
import { describe, expect, it } from 'vitest';
import { countStates, detectFireCategory, fireState } from './fire.ts';
import { parseSelection } from './selection.ts';
import { nextSeq } from './seq.ts';
import { isOnline, runState } from './status.ts';
import { filterTree, findNode, firstThing, nodeKey, regionsWithThings } from './tree.ts';
import {
  bucketFor,
  DEFAULT_HISTORY_WINDOW,
  historyQuery,
  parseWindow,
  realtimeQuery,
  resolveWindow,
  summaryQuery,
} from './window.ts';

const region = (
  id: number,
  name: string,
  children: RegionNode[] = [],
  parentId: number | null = null,
): RegionNode => ({
  id,
  parentId,
  name,
  description: '',
  thingId: null,
  resourceType: 'region',
  dimensions: [],
  level: 0,
  sort: 0,
  isClick: true,
  children,
});
const thing = (thingId: number, name: string, parentId: number): RegionNode => ({
  ...region(thingId, name, [], parentId),
  thingId,
  resourceType: 'thing',
});

const tree = [
  region(1, '总厂', [
    region(2, '一车间', [thing(11, '电表A', 2), thing(12, '空压机', 2)], 1),
    region(3, '二车间', [thing(11, '电表A', 3)], 1),
  ]),
];

describe('seq stamps', () => {
  it('are Date.now() strings, strictly increasing', () => {
    expect(nextSeq(null, 1_700_000_000_000)).toBe('1700000000000');
    expect(nextSeq('1700000000000', 1_700_000_000_000)).toBe('1700000000001');
    expect(nextSeq('1700000000000', 1_700_000_010_000)).toBe('1700000010000');
  });
});

describe('selection in the address', () => {
  it('reads resourceType and resourceId', () => {
    expect(parseSelection(new URLSearchParams('resourceType=thing&resourceId=11'))).toEqual({
      resourceType: 'thing',
      resourceId: 11,
    });
    expect(parseSelection(new URLSearchParams('resourceType=x&resourceId=11'))).toBeNull();
    expect(parseSelection(new URLSearchParams('resourceType=region&resourceId=-1'))).toBeNull();
  });
});

describe('tree', () => {
  it('keys a thing by parent, so a thing in two regions is two nodes', () => {
    expect(nodeKey(tree[0]!.children[0]!.children[0]!)).toBe('thing:2:11');
    expect(nodeKey(tree[0]!.children[1]!.children[0]!)).toBe('thing:3:11');
  });
  it('finds nodes and the first thing of a region', () => {
    expect(findNode(tree, { resourceType: 'region', resourceId: 3 })?.name).toBe('二车间');
    expect(firstThing(tree[0]!)?.thingId).toBe(11);
  });
  it('filters by name and expands the way to each match', () => {
    const { nodes, expandedKeys } = filterTree(tree, '空压');
    expect(nodes[0]!.children).toHaveLength(1);
    expect(nodes[0]!.children[0]!.children.map((n) => n.name)).toEqual(['空压机']);
    expect(expandedKeys.sort()).toEqual(['region:1', 'region:2']);
    expect(filterTree(tree, ' ').nodes).toEqual(tree);
  });
  it('groups things under their regions', () => {
    expect(regionsWithThings(tree).map((g) => [g.region.name, g.things.length])).toEqual([
      ['一车间', 2],
      ['二车间', 1],
    ]);
  });
});

describe('history window', () => {
  const now = 1_700_000_000_000;
  it('defaults to the last 1 hour', () => {
    expect(DEFAULT_HISTORY_HOURS).toBe(1);
    expect(parseWindow(new URLSearchParams())).toEqual({ kind: 'hours', hours: 1 });
    expect(resolveWindow(DEFAULT_HISTORY_WINDOW, now)).toEqual({ start: now - 3600_000, end: now });
  });
  it('reads hours or a range from the address', () => {
    expect(parseWindow(new URLSearchParams('hours=24'))).toEqual({ kind: 'hours', hours: 24 });
    expect(parseWindow(new URLSearchParams('hours=5'))).toEqual(DEFAULT_HISTORY_WINDOW);
    expect(parseWindow(new URLSearchParams('start=10&end=20'))).toEqual({
      kind: 'range',
      start: 10,
      end: 20,
    });
  });
  it('asks for raw points up to 6 h and for buckets of at most 2000 points beyond', () => {
    const h = 3600_000;
    expect(bucketFor(0, h)).toEqual({ maxPoints: 2000 });
    expect(bucketFor(0, 6 * h)).toEqual({ maxPoints: 2000 });
    // The server picks the width (1 min, 5 min, 6 h for these spans: query/ranges.test.ts).
    const auto = { groupByTime: 'auto', maxPoints: 2000 };
    expect(bucketFor(0, 12 * h)).toEqual(auto);
    expect(bucketFor(0, 72 * h)).toEqual(auto);
    expect(bucketFor(0, 365 * 24 * h)).toEqual(auto);
  });
});

describe('query bodies', () => {
  const metric = { identifier: 'P', name: '功率', unit: 'kW', aggregator: 'sum' as const, color: '#409EFF' };
  it('real time: the 5 minutes before the tick', () => {
    const q = realtimeQuery({ resourceType: 'thing', resourceId: 11 }, metric, '1700000000000', null);
    expect(q).toMatchObject({
      resourceType: 'thing',
      resourceId: 11,
      metricIdentifier: 'P',
      startTime: 1_699_999_700_000,
      endTime: 1_700_000_000_000,
    });
    expect(q).not.toHaveProperty('combine');
  });
  it('regions: descendants, one series per thing (for the total line), the category filter', () => {
    const q = historyQuery({ resourceType: 'region', resourceId: 1 }, metric, { start: 0, end: 3600_000 }, 4);
    expect(q).toMatchObject({ successor: true, combine: 'none', categoryId: 4, maxPoints: 2000 });
  });
  it('counters: one bucket over the window, summed over things', () => {
    const q = summaryQuery(
      { resourceType: 'region', resourceId: 1 },
      metric,
      { start: 0, end: 2 * 3600_000 },
      null,
    );
    expect(q).toMatchObject({ groupByTime: 'minute', groupByInterval: 120 });
    expect(q).not.toHaveProperty('combine');
  });
});

const cabinet = (attrs: Record<string, unknown>, lastSeenAgo: number | null = 5): Cabinet => ({
  thingId: 1,
  identifier: 'S1',
  name: 'S1',
  description: '',
  categoryId: 1,
  setting: { attributes: [] },
  attrMap: Object.fromEntries(
    Object.entries(attrs).map(([k, v]) => [k, { name: k, unit: '', value: v as number, ts: 0 }]),
  ),
  lastSeenAgo,
});

describe('device state', () => {
  it('online from lastSeenAgo', () => {
    expect(isOnline(10)).toBe(true);
    expect(isOnline(null)).toBe(false);
    expect(isOnline(10_000)).toBe(false);
  });
  it('运转状态 as running / stopped', () => {
    expect(runState(1)).toBe('running');
    expect(runState(0)).toBe('stopped');
    expect(runState('停机')).toBe('stopped');
    expect(runState(null)).toBe('unknown');
  });
});

describe('fire', () => {
  it('states: offline, alarm, fault, normal', () => {
    expect(fireState(cabinet({ state: 1 }, null))).toBe('offline');
    expect(fireState(cabinet({ state: 1 }))).toBe('alarm');
    expect(fireState(cabinet({ status: 'fault' }))).toBe('fault');
    expect(fireState(cabinet({ state: 0, smoke: 3 }))).toBe('normal');
    expect(countStates([cabinet({ state: 1 }), cabinet({ state: 0 }), cabinet({}, null)])).toEqual({
      alarm: 1,
      fault: 0,
      offline: 1,
      normal: 1,
    });
  });
  it('finds the category with a smoke metric', () => {
    const cat = (id: number, name: string) => ({ id, name }) as Category;
    const abilities: Record<number, { identifier: string; name: string }[]> = {
      1: [{ identifier: 'P', name: '功率' }],
      2: [{ identifier: 'smoke', name: '烟雾浓度' }],
    };
    expect(detectFireCategory([cat(1, '电表'), cat(2, '传感器')], (id) => abilities[id])).toBe(2);
    expect(detectFireCategory([cat(1, '电表')], (id) => abilities[id])).toBeNull();
  });
});
