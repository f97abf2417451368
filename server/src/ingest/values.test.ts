import { describe, expect, it } from 'vitest';
import { coerce, MAX_FUTURE_MS, pointTime } from './values.ts';

const ability = (
  dataType: 'number' | 'boolean' | 'enum' | 'string',
  enumOptions: { value: string; label: string }[] = [],
) => ({
  dataType,
  enumOptions,
});

describe('value coercion', () => {
  it('takes numbers and numeric strings for number abilities', () => {
    expect(coerce(ability('number'), 1.5)).toEqual({ kind: 'number', value: 1.5 });
    expect(coerce(ability('number'), ' 42 ')).toEqual({ kind: 'number', value: 42 });
    for (const bad of ['', 'abc', null, true, {}, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(coerce(ability('number'), bad)).toEqual({ kind: 'rejected', reason: 'bad value' });
    }
  });

  it('maps booleans to 0/1', () => {
    for (const yes of [true, 1, '1', 'true'])
      expect(coerce(ability('boolean'), yes)).toEqual({ kind: 'number', value: 1 });
    for (const no of [false, 0, '0', 'false'])
      expect(coerce(ability('boolean'), no)).toEqual({ kind: 'number', value: 0 });
    expect(coerce(ability('boolean'), 2).kind).toBe('rejected');
  });

  it('maps enum options to their numeric value, or their index when not numeric', () => {
    const status = ability('enum', [
      { value: '0', label: '停机' },
      { value: '1', label: '运行' },
      { value: '3', label: '故障' },
    ]);
    expect(coerce(status, 3)).toEqual({ kind: 'number', value: 3 });
    expect(coerce(status, '1')).toEqual({ kind: 'number', value: 1 });
    expect(coerce(status, '故障')).toEqual({ kind: 'number', value: 3 });
    expect(coerce(status, 2).kind).toBe('rejected');
    const mode = ability('enum', [
      { value: 'auto', label: '自动' },
      { value: 'manual', label: '手动' },
    ]);
    expect(coerce(mode, 'manual')).toEqual({ kind: 'number', value: 1 });
    expect(coerce(mode, 0)).toEqual({ kind: 'number', value: 0 });
    expect(coerce(mode, 2).kind).toBe('rejected');
    expect(coerce(mode, 'other').kind).toBe('rejected');
    expect(coerce(ability('enum'), 7)).toEqual({ kind: 'number', value: 7 });
  });

  it('keeps strings as text', () => {
    expect(coerce(ability('string'), 'v1.2')).toEqual({ kind: 'string', value: 'v1.2' });
    expect(coerce(ability('string'), 3)).toEqual({ kind: 'string', value: '3' });
    expect(coerce(ability('string'), null).kind).toBe('rejected');
  });
});

describe('point time', () => {
  const now = Date.parse('2026-11-22T08:00:00Z');
  const oldest = now - 365 * 86_400_000;
  it('uses the arrival time when absent, takes ms and 10-digit seconds', () => {
    expect(pointTime(undefined, now, oldest)).toBe(now);
    expect(pointTime(now - 1000, now, oldest)).toBe(now - 1000);
    expect(pointTime((now - 5000) / 1000, now, oldest)).toBe(now - 5000);
    expect(pointTime(String(now), now, oldest)).toBe(now);
  });
  it('refuses times too old, too far ahead, or not times', () => {
    expect(pointTime(oldest - 1, now, oldest)).toBeUndefined();
    expect(pointTime(now + MAX_FUTURE_MS + 1, now, oldest)).toBeUndefined();
    expect(pointTime(now + MAX_FUTURE_MS, now, oldest)).toBe(now + MAX_FUTURE_MS);
    expect(pointTime('yesterday', now, oldest)).toBeUndefined();
    expect(pointTime({}, now, oldest)).toBeUndefined();
  });
});
