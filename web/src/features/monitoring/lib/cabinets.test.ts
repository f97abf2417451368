import type { Cabinet } from '@kilowatch/contract';
import { describe, expect, it } from 'vitest';
import { cabinetColumns, cabinetOverview, filterCabinets } from './cabinets.ts';

const cabinet = (thingId: number, name: string, lastSeenAgo: number | null, run?: number): Cabinet => ({
  thingId,
  identifier: `AL-${thingId}`,
  name,
  description: '',
  categoryId: 1,
  setting: { attributes: [] },
  attrMap: {
    P: { name: '有功功率', unit: 'kW', value: thingId * 1.5, ts: 0 },
    ...(run === undefined ? {} : { run: { name: '运转状态', unit: '', value: run, ts: 0 } }),
  },
  lastSeenAgo,
});
const LIST = [
  cabinet(1, '装配线A 1#配电柜', 10, 1),
  cabinet(2, '装配线A 2#配电柜', 900, 0),
  cabinet(3, '一号车间水表', null),
  cabinet(4, '装配线B 1#配电柜', 5, 1),
];

describe('cabinet grid', () => {
  it('filters by name or identifier (any case) and by online state', () => {
    expect(filterCabinets(LIST, '装配线a', 'all').map((c) => c.thingId)).toEqual([1, 2]);
    expect(filterCabinets(LIST, 'al-4', 'all').map((c) => c.thingId)).toEqual([4]);
    expect(filterCabinets(LIST, '', 'offline').map((c) => c.thingId)).toEqual([2, 3]);
    expect(filterCabinets(LIST, '配电柜', 'online').map((c) => c.thingId)).toEqual([1, 4]);
  });

  it('counts cabinets, online, offline and running for the overview', () => {
    expect(cabinetOverview(LIST)).toEqual({ total: 4, online: 2, offline: 2, running: 2 });
  });

  it('exports one column per ability seen, the run state left to its own column', () => {
    expect(cabinetColumns(LIST)).toEqual([{ identifier: 'P', name: '有功功率', unit: 'kW' }]);
  });
});
