import type { EffectiveAbility } from '@kilowatch/contract';
import { describe, expect, it } from 'vitest';
import { EXPLORE_MAX_POINTS, RAW_SPAN_MS, seriesQuery } from './query.ts';

const HOUR = 3600_000;
const power = { identifier: 'P', name: '有功功率', unit: 'kW', aggregator: 'avg' } as EffectiveAbility;
const energy = {
  identifier: 'EP',
  name: '有功电能',
  unit: 'kWh',
  aggregator: 'last',
  cumulative: true,
} as EffectiveAbility;

describe('explore series query', () => {
  it('reads raw points up to 6 h and buckets beyond, never naming an aggregator', () => {
    const short = seriesQuery({ resourceType: 'thing', resourceId: 3, metric: 'P' }, power, {
      start: 0,
      end: RAW_SPAN_MS,
    });
    expect(short).toEqual({
      resourceType: 'thing',
      resourceId: 3,
      metricIdentifier: 'P',
      metricName: '有功功率',
      startTime: 0,
      endTime: RAW_SPAN_MS,
      maxPoints: EXPLORE_MAX_POINTS,
      unit: 'kW',
    });
    const long = seriesQuery({ resourceType: 'thing', resourceId: 3, metric: 'P' }, power, {
      start: 0,
      end: 8 * HOUR,
    });
    expect(long.groupByTime).toBe('auto');
    expect(long).not.toHaveProperty('aggregator');
  });

  it('asks a counter per bucket at every span, and a region with its sub-regions', () => {
    const q = seriesQuery({ resourceType: 'region', resourceId: 10, metric: 'EP' }, energy, {
      start: 0,
      end: HOUR,
    });
    expect(q.groupByTime).toBe('auto');
    expect(q.successor).toBe(true);
  });

  it('still asks for a series whose ability is unknown, under its identifier', () => {
    const q = seriesQuery({ resourceType: 'thing', resourceId: 3, metric: 'gone' }, undefined, {
      start: 0,
      end: HOUR,
    });
    expect(q.metricName).toBe('gone');
    expect(q).not.toHaveProperty('unit');
  });
});
