import { ErpConfig } from '@kilowatch/contract';
import { Check, Errors } from 'typebox/value';
import { AppError } from '../../../errors.ts';

/**
 * The ERP export's configuration (`erpConfig` in sys_configs, contract ErpConfig): what the
 * export uses while nobody saved one, a Chinese layout an accountant's import can map.
 */
export const DEFAULT_ERP_CONFIG: ErpConfig = {
  columns: [
    { field: 'code', header: 'ERP编码' },
    { field: 'identifier', header: '设备编号' },
    { field: 'name', header: '设备名称' },
    { field: 'period', header: '期间' },
    { field: 'consumption', header: '用量' },
    { field: 'unit', header: '单位' },
    { field: 'price', header: '单价' },
    { field: 'cost', header: '金额' },
    { field: 'currency', header: '币种' },
    { field: 'costBasis', header: '计价依据' },
  ],
  price: 0,
  currency: 'CNY',
  sheetName: 'ERP',
  codes: {},
};

/**
 * Checks an erpConfig value on write.
 * @throws AppError 400 naming the first problem.
 */
export function parseErpConfig(value: string): ErpConfig {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new AppError('BAD_REQUEST', 400, { detail: 'JSON' }, { message: 'erp.config' });
  }
  if (!Check(ErpConfig, parsed)) {
    const first = Errors(ErpConfig, parsed)[0];
    const detail = first ? `${first.instancePath || '/'} ${first.message}` : '';
    throw new AppError('BAD_REQUEST', 400, { detail }, { message: 'erp.config' });
  }
  return parsed;
}

/** The stored value as the export reads it; the default when missing (a bad one cannot be saved). */
export const readErpConfig = (value: string | undefined): ErpConfig =>
  value === undefined ? DEFAULT_ERP_CONFIG : parseErpConfig(value);
