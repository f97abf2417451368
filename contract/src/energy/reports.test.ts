import { describe, expect, it } from 'vitest';
import { PlantCalendar } from '../calendar.ts';
import { componentCompare, componentQueries, type ReportComponent } from './reports.ts';

const calendar = new PlantCalendar('Asia/Shanghai');
/** `YYYY-MM-DD HH:mm` in Asia/Shanghai. */
const sh = (text: string) => Date.parse(`${text.replace(' ', 'T')}:00+08:00`);
const day = calendar.periodRange('day', sh('2026-11-21 12:00'));

describe('componentCompare: a component comparison as the query’s compare', () => {
  it('shifts by hours for yesterday and last week, by months for month and year', () => {
    expect(componentCompare({ option: 'yesterday' }, 'day', day, calendar)).toEqual({
      shift: { amount: -24, unit: 'hour' },
    });
    expect(componentCompare({ option: 'lastWeek', align: true }, 'day', day, calendar)).toEqual({
      shift: { amount: -168, unit: 'hour' },
    });
    expect(componentCompare({ option: 'monthOnMonth', align: true }, 'month', day, calendar)).toEqual({
      shift: { amount: -1, unit: 'month' },
      align: 'weekday',
    });
    expect(componentCompare({ option: 'yearOnYear' }, 'year', day, calendar)).toEqual({
      shift: { amount: -1, unit: 'year' },
    });
    expect(componentCompare({ option: 'none' }, 'day', day, calendar)).toBeNull();
    expect(componentCompare(undefined, 'day', day, calendar)).toBeNull();
  });

  it('a chosen date names its whole period; a base period starts on its local day', () => {
    const month = calendar.periodRange('month', sh('2026-11-21 12:00'));
    expect(
      componentCompare({ option: 'date', time: sh('2026-10-17 15:00') }, 'month', month, calendar),
    ).toEqual({
      startTime: sh('2026-10-01 00:00'),
    });
    expect(
      componentCompare(
        { option: 'base', time: sh('2026-10-17 15:00'), align: true },
        'month',
        month,
        calendar,
      ),
    ).toEqual({ startTime: sh('2026-10-17 00:00'), align: 'weekday' });
    // The period shown itself, or no date chosen: nothing to compare.
    expect(
      componentCompare({ option: 'date', time: sh('2026-11-02 09:00') }, 'month', month, calendar),
    ).toBeNull();
    expect(componentCompare({ option: 'base', time: null }, 'day', day, calendar)).toBeNull();
  });
});

describe('componentQueries', () => {
  const component: Pick<ReportComponent, 'params' | 'metrics' | 'yoy'> = {
    params: { regionId: 3 },
    yoy: { option: 'yesterday' },
    metrics: [
      {
        categoryId: 2,
        identifier: 'EP',
        name: '电能',
        statistics: 'delta',
        formula: 'x / 1000',
        scale: 3,
        unit: 'MWh',
      },
      {
        identifier: 'P',
        name: '',
        statistics: 'avg',
        groupByTime: 'minute',
        groupByInterval: 15,
        formula: ' ',
      },
    ],
  };

  it('asks each metric over the period, on its buckets, with the comparison', () => {
    const [energy, power] = componentQueries(component, 'day', sh('2026-11-21 12:00'), calendar) ?? [];
    expect(energy).toEqual({
      resourceType: 'region',
      resourceId: 3,
      successor: true,
      categoryId: 2,
      metricIdentifier: 'EP',
      metricName: '电能',
      aggregator: 'delta',
      groupByTime: 'hour',
      groupByInterval: 1,
      startTime: sh('2026-11-21 00:00'),
      endTime: sh('2026-11-22 00:00'),
      formula: 'x / 1000',
      scale: 3,
      unit: 'MWh',
      compare: { shift: { amount: -24, unit: 'hour' } },
    });
    expect(power).toMatchObject({ metricName: 'P', groupByTime: 'minute', groupByInterval: 15 });
    expect(power).not.toHaveProperty('formula');
    expect(power).not.toHaveProperty('categoryId');
  });

  it('a year by months, a thing without successor; nothing without a thing or region', () => {
    const [q] =
      componentQueries({ ...component, params: { thingId: 9 } }, 'year', sh('2026-11-21 12:00'), calendar) ??
      [];
    expect(q).toMatchObject({
      resourceType: 'thing',
      resourceId: 9,
      groupByTime: 'month',
      startTime: sh('2026-01-01 00:00'),
    });
    expect(q).not.toHaveProperty('successor');
    expect(q).not.toHaveProperty('categoryId');
    expect(componentQueries({ ...component, params: {} }, 'day', 0, calendar)).toBeNull();
  });
});
