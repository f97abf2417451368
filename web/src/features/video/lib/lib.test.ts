import type { Camera, RegionNode } from '@kilowatch/contract';
import { describe, expect, it } from 'vitest';
import {
  EMPTY_GRID,
  fillWith,
  layoutFor,
  loadGrid,
  placeCamera,
  saveGrid,
  storageKey,
  targetTile,
} from './layout.ts';
import { fillTemplate, isHlsUrl, offsetAt } from './recording.ts';
import { sourceOf } from './sources.ts';
import { camerasInRegion, cameraTree } from './tree.ts';

const T0 = Date.parse('2026-11-24T03:00:00.000Z');
const segments = [0, 1, 2].map((i) => ({ start: i * 2, duration: 2, programDateTime: T0 + i * 2000 }));

describe('offsetAt: the media time of a wall-clock moment by EXT-X-PROGRAM-DATE-TIME', () => {
  it('finds the moment inside its segment', () => {
    expect(offsetAt(segments, T0)).toEqual({ ok: true, offset: 0 });
    expect(offsetAt(segments, T0 + 3500)).toEqual({ ok: true, offset: 3.5 });
    expect(offsetAt(segments, T0 + 6000)).toEqual({ ok: true, offset: 6 });
  });

  it('follows the segment dates across a gap, not the running sum of durations', () => {
    // The recorder stopped for 60 s after the second segment: the third starts at media time 4.
    const gap = [...segments.slice(0, 2), { start: 4, duration: 2, programDateTime: T0 + 64_000 }];
    expect(offsetAt(gap, T0 + 65_000)).toEqual({ ok: true, offset: 5 });
    // A moment inside the gap shows the end of the segment before it.
    expect(offsetAt(gap, T0 + 30_000)).toEqual({ ok: true, offset: 4 });
  });

  it('says when the moment is outside the recording or the playlist has no dates', () => {
    expect(offsetAt(segments, T0 - 1)).toEqual({ ok: false, why: 'before', first: T0, last: T0 + 6000 });
    expect(offsetAt(segments, T0 + 6001)).toMatchObject({ ok: false, why: 'after' });
    expect(offsetAt([{ start: 0, duration: 2, programDateTime: null }], T0)).toEqual({
      ok: false,
      why: 'noProgramDateTime',
    });
  });
});

describe('fillTemplate: an NVR playback address around a moment', () => {
  it('puts the window start 30 s before the moment, in UTC, and seeks 30 s in', () => {
    const at = Date.parse('2026-11-24T03:10:00.700Z');
    expect(fillTemplate('http://gw:9996/get?path=cam1&start={start}&end={end}&d={duration}', at)).toEqual({
      url: 'http://gw:9996/get?path=cam1&start=2026-11-24T03%3A09%3A30Z&end=2026-11-24T03%3A14%3A30Z&d=300',
      offset: 30,
    });
  });

  it('tells playlists from files by the path', () => {
    expect(isHlsUrl('http://nvr/play/index.m3u8?start=x')).toBe(true);
    expect(isHlsUrl('http://gw:9996/get?path=a.m3u8')).toBe(false);
  });
});

const camera = (over: Partial<Camera>): Camera => ({
  id: 1,
  name: 'cam',
  regionId: null,
  regionName: null,
  thingId: null,
  thingName: null,
  play: { protocol: 'hls', url: 'http://gw/cam.m3u8' },
  recording: null,
  match: null,
  ...over,
});

describe('sourceOf: what a tile plays', () => {
  it('plays live without a moment, the recording with one, live when there is no recording', () => {
    const recorded = camera({ recording: { kind: 'hls', url: 'http://nvr/cam.m3u8' } });
    expect(sourceOf(recorded, null)).toEqual({
      source: { protocol: 'hls', url: 'http://gw/cam.m3u8' },
      recording: false,
    });
    expect(sourceOf(recorded, T0)).toEqual({
      source: { protocol: 'hls', url: 'http://nvr/cam.m3u8', at: T0 },
      recording: true,
    });
    expect(sourceOf(camera({}), T0).recording).toBe(false);
    expect(sourceOf(camera({ play: null }), null).source).toBeNull();
  });

  it('plays a filled NVR template as a file unless it is a playlist', () => {
    const nvr = camera({ recording: { kind: 'template', url: 'http://gw:9996/get?start={start}' } });
    expect(sourceOf(nvr, T0).source).toMatchObject({ protocol: 'file', offset: 30 });
    const hls = camera({ recording: { kind: 'template', url: 'http://nvr/{start}/index.m3u8' } });
    expect(sourceOf(hls, T0).source).toMatchObject({ protocol: 'hls', offset: 30 });
  });
});

describe('the grid', () => {
  it('places a camera once, in the selected tile or the first empty one', () => {
    let grid = placeCamera(EMPTY_GRID, 0, 7);
    expect(targetTile(grid, null)).toBe(1);
    expect(targetTile(grid, 3)).toBe(3);
    // A selected tile outside the layout (after going from 9 to 4) is not used.
    expect(targetTile(grid, 8)).toBe(1);
    grid = placeCamera(grid, 2, 7);
    expect(grid.slots.slice(0, 4)).toEqual([null, null, 7, null]);
    expect(targetTile(fillWith(grid, [1, 2, 3, 4]), null)).toBe(3);
  });

  it('fills the visible tiles and picks the smallest layout holding a list', () => {
    expect(fillWith({ ...EMPTY_GRID, layout: 4 }, [5, 6]).slots.slice(0, 4)).toEqual([5, 6, null, null]);
    expect([1, 2, 4, 5, 10, 40].map(layoutFor)).toEqual([1, 4, 4, 9, 16, 16]);
  });

  it('is kept per user and survives a bad stored value', () => {
    const grid = { layout: 9 as const, slots: [3, null, 4, ...Array(13).fill(null)] };
    saveGrid(5, grid);
    expect(loadGrid(5)).toEqual(grid);
    expect(loadGrid(6)).toEqual(EMPTY_GRID);
    localStorage.setItem(storageKey(6), '{"layout":3,"slots":[]}');
    expect(loadGrid(6)).toEqual(EMPTY_GRID);
    localStorage.setItem(storageKey(6), 'not json');
    expect(loadGrid(6)).toEqual(EMPTY_GRID);
  });
});

const region = (id: number, name: string, children: RegionNode[] = []): RegionNode => ({
  id,
  parentId: null,
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

describe('cameraTree: cameras grouped by region', () => {
  const regions = [region(1, '一车间', [region(2, '一号线'), region(3, '空线')]), region(4, '仓库')];
  const cameras = [
    camera({ id: 10, name: '线头', regionId: 2 }),
    camera({ id: 11, name: '大门', regionId: 1 }),
    camera({ id: 12, name: '电表间', thingId: 9, thingName: '1#变压器' }),
    camera({ id: 13, name: '屋顶' }),
  ];

  it('nests cameras under their regions, leaves out empty regions, then devices and the rest', () => {
    const tree = cameraTree(regions, cameras, { byThing: '绑定设备的摄像头', unassigned: '未分区' });
    expect(tree.map((n) => [n.key, n.title, n.cameraIds])).toEqual([
      ['region:1', '一车间', [10, 11]],
      ['things', '绑定设备的摄像头', [12]],
      ['unassigned', '未分区', [13]],
    ]);
    expect(tree[0]?.children?.map((n) => n.key)).toEqual(['region:2', 'camera:11']);
    expect(tree[1]?.children?.[0]?.title).toBe('1#变压器 · 电表间');
  });

  it("finds a region subtree's cameras", () => {
    expect(camerasInRegion(regions, cameras, 1).cameras.map((c) => c.id)).toEqual([10, 11]);
    expect(camerasInRegion(regions, cameras, 99)).toEqual({ name: null, cameras: [] });
  });
});
