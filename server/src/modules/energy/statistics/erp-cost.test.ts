import { describe, expect, it } from 'vitest';
import { periodCost } from './erp-cost.ts';

describe('the ERP cost of a period', () => {
  it('takes the band-weighted cost of what the tariff priced, and says so', () => {
    expect(periodCost(80, { energy: 80, cost: 45, unpriced: 0 }, 0.5)).toEqual({
      cost: 45,
      price: 45 / 80,
      basis: 'tariff',
    });
  });

  it('prices energy before the tariff’s first version at the flat price: mixed in one period', () => {
    // 30 kWh on priced days for 12, 10 kWh before the first version at 0.5.
    expect(periodCost(40, { energy: 30, cost: 12, unpriced: 10 }, 0.5)).toEqual({
      cost: 17,
      price: 17 / 40,
      basis: 'mixed',
    });
    expect(periodCost(10, { energy: 0, cost: 0, unpriced: 10 }, 0.5)).toMatchObject({
      cost: 5,
      basis: 'flat',
    });
  });

  it('keeps the flat price when the tariff saw no energy the statistics counted; nothing costs nothing', () => {
    expect(periodCost(7, { energy: 0, cost: 0, unpriced: 0 }, 0.5)).toEqual({
      cost: 3.5,
      price: 0.5,
      basis: 'flat',
    });
    expect(periodCost(0, { energy: 0, cost: 0, unpriced: 0 }, 0.5)).toMatchObject({
      cost: 0,
      basis: 'tariff',
    });
    expect(periodCost(null, { energy: 0, cost: 0, unpriced: 0 }, 0.5).cost).toBeNull();
  });
});
