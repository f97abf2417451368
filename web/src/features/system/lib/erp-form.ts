import type { ErpConfig, ErpField } from '@kilowatch/contract';

/** The ERP form's values: the records of erpConfig as rows the form can list, add and remove. */
export interface ErpFormValues {
  sheetName: string;
  currency: string;
  price: number;
  tariffId: number | null;
  columns: { field: ErpField; header: string }[];
  codes: { identifier: string; code: string }[];
  tariffs: { identifier: string; tariffId: number }[];
}

/** Excel refuses these in a sheet name. */
export const SHEET_NAME_FORBIDDEN = /[[\]:*?/\\]/;

export const toErpForm = (config: ErpConfig): ErpFormValues => ({
  sheetName: config.sheetName,
  currency: config.currency,
  price: config.price,
  tariffId: config.tariffId ?? null,
  columns: config.columns.map((c) => ({ ...c })),
  codes: Object.entries(config.codes).map(([identifier, code]) => ({ identifier, code })),
  tariffs: Object.entries(config.tariffs ?? {}).map(([identifier, tariffId]) => ({ identifier, tariffId })),
});

export const fromErpForm = (values: ErpFormValues): ErpConfig => ({
  sheetName: values.sheetName.trim(),
  currency: values.currency.trim(),
  price: values.price,
  tariffId: values.tariffId ?? null,
  columns: values.columns.map((c) => ({ field: c.field, header: c.header.trim() })),
  codes: Object.fromEntries(values.codes.map((c) => [c.identifier.trim(), c.code.trim()])),
  tariffs: Object.fromEntries(values.tariffs.map((c) => [c.identifier.trim(), c.tariffId])),
});

/** Indexes of rows whose identifier an earlier row already has (a record keeps one per thing). */
export function repeatedIdentifiers(rows: readonly { identifier?: string }[]): Set<number> {
  const seen = new Set<string>();
  const repeated = new Set<number>();
  rows.forEach((row, i) => {
    const id = row?.identifier?.trim();
    if (!id) return;
    if (seen.has(id)) repeated.add(i);
    seen.add(id);
  });
  return repeated;
}
