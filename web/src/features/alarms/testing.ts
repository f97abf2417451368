import type { AlarmRule } from '@kilowatch/contract';

/** An oil-temperature rule as the server lists it, for the alarm screens' tests. */
export const alarmRule = (overrides: Partial<AlarmRule> = {}): AlarmRule => ({
  id: 7,
  name: '油温过高',
  ability: 'oilTemp',
  categoryId: 1,
  condition: { kind: 'threshold', op: '>', value: 105 },
  onDelay: 0,
  offDelay: 0,
  deadband: 1,
  severity: 'major',
  message: '',
  templateId: null,
  templateName: '',
  enabled: true,
  things: 3,
  createdAt: '',
  updatedAt: '',
  ...overrides,
});
