import { describe, expect, it } from 'vitest';
import { alarmValueText } from './alarm-value.ts';

describe('alarmValueText', () => {
  it('names the ability and gives the unit and at most 2 decimals', () => {
    expect(alarmValueText({ ability: 'P', abilityName: '有功功率', value: '25.1234', unit: 'kW' })).toBe(
      '有功功率 25.12 kW',
    );
    expect(alarmValueText({ ability: 'oilTemp', abilityName: '油温', value: '105', unit: '℃' }, false)).toBe(
      '105 ℃',
    );
  });

  it('names a state', () => {
    expect(alarmValueText({ ability: 'run', abilityName: '运转状态', value: '2', valueName: '故障' })).toBe(
      '运转状态 故障 (2)',
    );
  });

  it('falls back to the identifier and the bare value when the ability is unknown', () => {
    expect(alarmValueText({ ability: 'X', value: '3' })).toBe('X 3');
  });
});
