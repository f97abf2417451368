import type { Bill } from '@kilowatch/contract';
import { describe, expect, it } from 'vitest';
import { billLines } from './bill-lines.ts';

const t = (key: string) => key;

describe('billLines', () => {
  it('writes quantities with thousands separators, like the amounts', () => {
    const bill = {
      energy: [{ band: 'flat', energy: 12345.6, price: 0.6, cost: 7407.36 }],
      energyKwh: 1234567.891,
      energyCost: 7407.36,
      demand: { kind: 'demand', quantity: 1520.5, price: 38, cost: 57779 },
      powerFactor: { note: 'noTarget', cosPhi: null, target: null, percent: 0, cost: 0 },
      totalCost: 65186.36,
    } as unknown as Bill;
    const lines = billLines(bill, t);
    expect(lines.map((l) => l.quantity).slice(0, 3)).toEqual([
      '12,345.60 kWh',
      '1,234,567.89 kWh',
      '1,520.50 kW',
    ]);
  });
});
