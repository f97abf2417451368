import { describe, expect, it } from 'vitest';
import { alarmTarget } from './ComponentCard.tsx';

const metric = (categoryId: number | null) => ({
  identifier: 'P',
  name: '功率',
  statistics: 'avg' as const,
  ...(categoryId === null ? {} : { categoryId }),
});

describe('the things a KPI or board chart marks the alarms of', () => {
  it('is the component\u2019s device, or its region narrowed to the one category its metrics share', () => {
    expect(alarmTarget({ params: { thingId: 7 }, metrics: [metric(2)] })).toEqual({
      resourceType: 'thing',
      resourceId: 7,
    });
    expect(alarmTarget({ params: { regionId: 3 }, metrics: [metric(2), metric(2)] })).toEqual({
      resourceType: 'region',
      resourceId: 3,
      categoryId: 2,
    });
    // Metrics of several categories (or none named): every device of the region.
    expect(alarmTarget({ params: { regionId: 3 }, metrics: [metric(2), metric(5)] })?.categoryId).toBeNull();
    expect(alarmTarget({ params: { regionId: 3 }, metrics: [metric(null)] })?.categoryId).toBeNull();
    expect(alarmTarget({ params: {}, metrics: [metric(2)] })).toBeNull();
  });
});
