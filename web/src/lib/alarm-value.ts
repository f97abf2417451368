import type { AlarmHistoryItem } from '@kilowatch/contract';

type AlarmValue = Pick<AlarmHistoryItem, 'ability' | 'abilityName' | 'unit' | 'value' | 'valueName'>;

const NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * An alarm's value as a person reads it, wherever it shows (history, bell, drawer): with its
 * unit, a state by its name, and — unless the place already says it — the ability's name.
 * @example alarmValueText({ ability: 'P', abilityName: '有功功率', value: '25.1234', unit: 'kW' }) // '有功功率 25.12 kW'
 * @example alarmValueText({ ability: 'run', abilityName: '运转状态', value: '2', valueName: '故障' }, false) // '故障 (2)'
 */
export function alarmValueText(a: AlarmValue, withName = true): string {
  const raw = a.value;
  if (raw === '') return '—';
  const number = NUMBER.test(raw) && (raw.split('.')[1]?.length ?? 0) > 2 ? Number(raw).toFixed(2) : raw;
  const value = a.valueName ? `${a.valueName} (${raw})` : a.unit ? `${number} ${a.unit}` : number;
  return withName ? `${a.abilityName || a.ability} ${value}` : value;
}
