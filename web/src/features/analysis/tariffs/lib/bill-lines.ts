import type { Bill } from '@kilowatch/contract';

/** One line of the bill as the table and the workbook show it. */
export interface BillLine {
  key: string;
  item: string;
  quantity: string;
  price: number | null;
  amount: number;
  strong?: boolean;
}

type T = (key: string, params?: Record<string, unknown>) => string;

/** A quantity with 2 decimals and thousands separators, as the amounts beside it: `12,345.60 kWh`. */
const quantity = (n: number, unit: string) =>
  `${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${unit}`;
const kwh = (n: number) => quantity(n, 'kWh');

/** The bill's lines in reading order: energy by band, its subtotal, demand, power factor, total. */
export function billLines(bill: Bill, t: T): BillLine[] {
  const lines: BillLine[] = bill.energy.map((l) => ({
    key: l.band,
    item: `${t('tariffs.bill.energy')} · ${t(`tariffs.band.${l.band}`)}`,
    quantity: kwh(l.energy),
    price: l.price,
    amount: l.cost,
  }));
  lines.push({
    key: 'energyTotal',
    item: t('tariffs.bill.energyTotal'),
    quantity: kwh(bill.energyKwh),
    price: null,
    amount: bill.energyCost,
    strong: true,
  });
  const { demand, powerFactor: pf } = bill;
  lines.push({
    key: 'demand',
    item:
      demand.kind === 'demand'
        ? t('tariffs.bill.demand')
        : demand.kind === 'capacity'
          ? t('tariffs.bill.capacity')
          : t('tariffs.bill.noDemand'),
    quantity:
      demand.kind === 'demand'
        ? quantity(demand.quantity, 'kW')
        : demand.kind === 'capacity'
          ? quantity(demand.quantity, 'kVA')
          : '—',
    price: demand.kind === 'none' ? null : demand.price,
    amount: demand.cost,
  });
  lines.push({
    key: 'powerFactor',
    item: t('tariffs.bill.powerFactor'),
    quantity:
      pf.note === 'noTarget'
        ? t('tariffs.bill.pfNoTarget')
        : pf.note === 'noReactive'
          ? t('tariffs.bill.pfNoReactive')
          : t('tariffs.bill.pfDetail', {
              cos: pf.cosPhi?.toFixed(2),
              target: pf.target?.toFixed(2),
              percent: pf.percent > 0 ? `+${pf.percent}` : String(pf.percent),
            }),
    price: null,
    amount: pf.cost,
  });
  lines.push({
    key: 'total',
    item: t('tariffs.bill.total'),
    quantity: '',
    price: null,
    amount: bill.total,
    strong: true,
  });
  return lines;
}
