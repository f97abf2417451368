import type { AlarmCondition } from '@kilowatch/contract';

type T = (key: string, options?: Record<string, unknown>) => string;

/** What a condition's numbers are in: the watched ability's unit and the names of its states. */
export interface ConditionAbility {
  unit?: string;
  enumOptions?: readonly { value: string; label: string }[];
}

const op = (o: string) => (o === '!=' ? '≠' : o);

/**
 * A condition in a few words for the rules table, in the ability's unit and with its states by
 * name: "> 105 ℃", "outside 10 V – 20 V", "状态为 故障", "no data 300 s".
 */
export function conditionText(c: AlarmCondition, t: T, ability: ConditionAbility = {}): string {
  const unit = ability.unit ? ` ${ability.unit}` : '';
  const v = (n: number) => `${n}${unit}`;
  switch (c.kind) {
    case 'threshold':
      return `${op(c.op)} ${v(c.value)}`;
    case 'range':
      return t(c.inside ? 'alarms.text.inside' : 'alarms.text.outside', { low: v(c.low), high: v(c.high) });
    case 'rate':
      return t('alarms.text.rate', { op: op(c.op), value: v(c.value), seconds: c.seconds });
    case 'noData':
      return t('alarms.text.noData', { seconds: c.seconds });
    case 'state': {
      const name = (value: string) => ability.enumOptions?.find((o) => o.value === value)?.label ?? value;
      return t('alarms.text.state', { values: c.values.map(name).join(', ') });
    }
  }
}
