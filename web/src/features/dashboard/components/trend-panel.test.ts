import { describe, expect, it } from 'vitest';
import { fewValueLabels } from './TrendPanel.tsx';

describe('fewValueLabels', () => {
  it('asks every value axis for two splits (three labels in a 50 px plot, not seven)', () => {
    const option = fewValueLabels({
      yAxis: [
        { type: 'value', name: 'kW' },
        { type: 'value', name: 'kWh' },
      ],
    });
    expect(option.yAxis).toEqual([
      { type: 'value', name: 'kW', scale: false, splitNumber: 2 },
      { type: 'value', name: 'kWh', scale: false, splitNumber: 2 },
    ]);
  });
});
