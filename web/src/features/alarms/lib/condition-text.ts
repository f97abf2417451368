import type { AlarmCondition } from '@kilowatch/contract';

type T = (key: string, options?: Record<string, unknown>) => string;

const op = (o: string) => (o === '!=' ? '≠' : o);

/** A condition in a few words for the rules table: "> 80", "outside 10 – 20", "no data 300 s". */
export function conditionText(c: AlarmCondition, t: T): string {
  switch (c.kind) {
    case 'threshold':
      return `${op(c.op)} ${c.value}`;
    case 'range':
      return t(c.inside ? 'alarms.text.inside' : 'alarms.text.outside', { low: c.low, high: c.high });
    case 'rate':
      return t('alarms.text.rate', { op: op(c.op), value: c.value, seconds: c.seconds });
    case 'noData':
      return t('alarms.text.noData', { seconds: c.seconds });
    case 'state':
      return t('alarms.text.state', { values: c.values.join(', ') });
  }
}
