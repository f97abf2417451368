import type { Placement } from '@kilowatch/contract';
import { describe, expect, it } from 'vitest';
import { mergeLive } from '../../../api/live.ts';
import { markerColor, markerState, toFraction, viewportScale } from './state.ts';

const NOW = Date.parse('2026-11-24T08:00:00Z');
const thing: Placement = {
  id: 1,
  resourceType: 'thing',
  resourceId: 7,
  name: '空压机1',
  x: 0.5,
  y: 0.5,
  presence: 'offline',
  online: 0,
  things: 1,
  alarm: null,
};

describe('markerState', () => {
  it('turns a device online and running the moment a live value arrives', () => {
    expect(markerState(thing, new Map(), NOW, 'P')).toEqual({
      presence: 'offline',
      running: null,
      alarm: null,
      power: null,
    });
    const live = mergeLive(new Map(), [
      { thingId: 7, metric: 'status', ts: NOW - 1000, value: '1' },
      { thingId: 7, metric: 'P', ts: NOW - 1000, value: 55.5 },
    ]);
    const state = markerState(thing, live, NOW, 'P');
    expect(state).toEqual({ presence: 'online', running: true, alarm: null, power: 55.5 });
    expect(markerColor(state)).toBe('#52c41a');
    const stopped = mergeLive(live, [{ thingId: 7, metric: 'status', ts: NOW, value: '0' }]);
    expect(markerColor(markerState(thing, stopped, NOW, 'P'))).toBe('#1677ff');
  });

  it('keeps an old live value from making a silent device online', () => {
    const live = mergeLive(new Map(), [{ thingId: 7, metric: 'P', ts: NOW - 10 * 60_000, value: 1 }]);
    expect(markerState(thing, live, NOW, 'P').presence).toBe('offline');
  });

  it('colours by alarm first, flashing while unacknowledged', () => {
    const alarmed = {
      ...thing,
      presence: 'online' as const,
      alarm: { severity: 'critical' as const, unacknowledged: true, count: 2 },
    };
    const state = markerState(alarmed, new Map(), NOW, 'P');
    expect(state.alarm).toEqual({ severity: 'critical', flashing: true });
    expect(markerColor(state)).toBe('#ff4d4f');
  });
});

describe('mergeLive', () => {
  it('keeps one value per series and ignores a late older point', () => {
    let latest = mergeLive(new Map(), [{ thingId: 1, metric: 'P', ts: 2, value: 2 }]);
    for (let i = 0; i < 1000; i++)
      latest = mergeLive(latest, [{ thingId: 1, metric: 'P', ts: 3 + i, value: i }]);
    latest = mergeLive(latest, [{ thingId: 1, metric: 'P', ts: 1, value: -1 }]);
    expect(latest.get(1)?.size).toBe(1);
    expect(latest.get(1)?.get('P')?.value).toBe(999);
  });
});

describe('geometry', () => {
  it('places by fractions of the image, clamped to it', () => {
    const box = { left: 100, top: 50, width: 800, height: 400 } as DOMRect;
    expect(toFraction(500, 250, box)).toEqual({ x: 0.5, y: 0.5 });
    expect(toFraction(0, 1000, box)).toEqual({ x: 0, y: 1 });
  });

  it('scales 1 at 1080p and 2 at 4K', () => {
    expect(viewportScale(1920, 1080)).toBe(1);
    expect(viewportScale(3840, 2160)).toBe(2);
    expect(viewportScale(3840, 1080)).toBe(1);
  });
});
