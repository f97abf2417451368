import { describe, expect, it } from 'vitest';
import { CATEGORIES, planThings } from './plant.ts';

describe('demo plant plan', () => {
  it.each([50, 120, 200])('plans %i things with unique identifiers over every kind', (total) => {
    const things = planThings(total);
    expect(things).toHaveLength(total);
    expect(new Set(things.map((t) => t.identifier)).size).toBe(total);
    for (const category of CATEGORIES) expect(things.some((t) => t.kind === category.kind)).toBe(true);
  });

  it('refuses totals outside 50–200', () => {
    expect(() => planThings(49)).toThrow(RangeError);
    expect(() => planThings(201)).toThrow(RangeError);
  });
});
