import type { TariffVersionBody } from '@kilowatch/contract';
import { describe, expect, it } from 'vitest';
import { blankVersion, formOfVersion, versionOfForm } from './version-form.ts';

const version = (demand: TariffVersionBody['demand']): TariffVersionBody => ({
  ...versionOfForm(blankVersion('2026-12-01', '全年')),
  prices: { flat: 0.6 },
  demand,
});

describe('the version form keeps the demand window', () => {
  it('a sliding window round-trips; a demand charge without one reads as fixed', () => {
    const sliding = version({ kind: 'demand', pricePerKw: 40, window: 'sliding' });
    expect(formOfVersion(sliding).demandWindow).toBe('sliding');
    expect(versionOfForm(formOfVersion(sliding)).demand).toEqual({
      kind: 'demand',
      pricePerKw: 40,
      window: 'sliding',
    });
    const older = version({ kind: 'demand', pricePerKw: 40 });
    expect(versionOfForm(formOfVersion(older)).demand).toEqual({
      kind: 'demand',
      pricePerKw: 40,
      window: 'fixed',
    });
  });

  it('a capacity charge carries no window', () => {
    const capacity = version({ kind: 'capacity', pricePerKva: 25, capacityKva: 400 });
    expect(versionOfForm(formOfVersion(capacity)).demand).toEqual({
      kind: 'capacity',
      pricePerKva: 25,
      capacityKva: 400,
    });
  });
});
