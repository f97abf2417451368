import {
  BAND_KINDS,
  type BandPrices,
  type BandSpan,
  type DemandCharge,
  type DemandWindowMode,
  type Season,
  type TariffVersionBody,
} from '@kilowatch/contract';

/** The version editor's form values: the body flattened where antd fields want plain values. */
export interface VersionFormValues {
  validFrom: string;
  note: string;
  prices: BandPrices;
  demandKind: DemandCharge['kind'];
  pricePerKw?: number;
  /** How a demand charge windows the maximum. */
  demandWindow?: DemandWindowMode;
  pricePerKva?: number;
  capacityKva?: number;
  /** 'none' for no power-factor adjustment. */
  powerFactorTarget: 0.9 | 0.85 | 0.8 | 'none';
  seasons: Season[];
}

const WHOLE_DAY: BandSpan[] = [{ band: 'flat', from: '00:00', to: '24:00' }];

/** A new tariff's first version: one season for the year, the whole day flat, prices to fill in. */
export const blankVersion = (validFrom: string, seasonName: string): VersionFormValues => ({
  validFrom,
  note: '',
  prices: {},
  demandKind: 'none',
  demandWindow: 'fixed',
  powerFactorTarget: 0.9,
  seasons: [
    {
      name: seasonName,
      from: '01-01',
      to: '12-31',
      workday: WHOLE_DAY,
      weekend: WHOLE_DAY,
      holiday: WHOLE_DAY,
    },
  ],
});

export function formOfVersion(v: TariffVersionBody, validFrom = v.validFrom): VersionFormValues {
  return {
    validFrom,
    note: v.note ?? '',
    prices: { ...v.prices },
    demandKind: v.demand.kind,
    pricePerKw: v.demand.kind === 'demand' ? v.demand.pricePerKw : undefined,
    demandWindow: v.demand.kind === 'demand' ? (v.demand.window ?? 'fixed') : 'fixed',
    pricePerKva: v.demand.kind === 'capacity' ? v.demand.pricePerKva : undefined,
    capacityKva: v.demand.kind === 'capacity' ? v.demand.capacityKva : undefined,
    powerFactorTarget: v.powerFactorTarget ?? 'none',
    seasons: structuredClone(v.seasons),
  };
}

export function versionOfForm(f: VersionFormValues): TariffVersionBody {
  const demand: DemandCharge =
    f.demandKind === 'demand'
      ? { kind: 'demand', pricePerKw: f.pricePerKw ?? 0, window: f.demandWindow ?? 'fixed' }
      : f.demandKind === 'capacity'
        ? { kind: 'capacity', pricePerKva: f.pricePerKva ?? 0, capacityKva: f.capacityKva ?? 0 }
        : { kind: 'none' };
  const prices: BandPrices = {};
  for (const band of BAND_KINDS) {
    const p = f.prices[band];
    if (typeof p === 'number') prices[band] = p;
  }
  return {
    validFrom: f.validFrom,
    note: f.note ?? '',
    prices,
    seasons: f.seasons.map((s) => ({
      name: s.name.trim(),
      from: s.from,
      to: s.to,
      workday: s.workday,
      weekend: s.weekend,
      holiday: s.holiday,
    })),
    demand,
    powerFactorTarget: f.powerFactorTarget === 'none' ? null : f.powerFactorTarget,
  };
}
