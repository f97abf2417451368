import { describe, expect, it } from 'vitest';
import { fillMessage } from './message.ts';

describe('fillMessage', () => {
  const facts = { value: '95.5', unit: 'kW', thing: '电表1', region: '一车间', rule: '功率过高' };

  it('fills every placeholder, as often as it appears', () => {
    expect(fillMessage('{thing}（{region}）功率 {value}{unit}：{rule}，{value}', facts)).toBe(
      '电表1（一车间）功率 95.5kW：功率过高，95.5',
    );
  });

  it('leaves other braces and an empty message as written', () => {
    expect(fillMessage('{other} {value', facts)).toBe('{other} {value');
    expect(fillMessage('', facts)).toBe('');
  });

  it('does not read replacement patterns in the facts', () => {
    expect(fillMessage('{thing}', { ...facts, thing: '$& $1' })).toBe('$& $1');
  });
});
