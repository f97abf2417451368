import { describe, expect, it } from 'vitest';
import i18n from '../../../../lib/i18n.ts';
import { spanProblem, spanProblemText } from './band-strip.ts';

const t = (key: string, params?: Record<string, unknown>) => i18n.t(key, params) as string;

describe('the band editor explains bands that do not tile the day', () => {
  it('names the two overlapping bands and the stretch they share, in zh, en and es', async () => {
    await i18n.changeLanguage('zh');
    const problem = spanProblem([
      { band: 'valley', from: '00:00', to: '10:00' },
      { band: 'peak', from: '08:00', to: '12:00' },
      { band: 'flat', from: '12:00', to: '24:00' },
    ]);
    expect(problem).toEqual({
      kind: 'overlap',
      first: { band: 'valley', from: '00:00', to: '10:00' },
      second: { band: 'peak', from: '08:00', to: '12:00' },
      from: '08:00',
      to: '10:00',
    });
    expect(spanProblemText(problem!, t)).toBe(
      '谷 00:00–10:00 与 峰 08:00–12:00 在 08:00–10:00 重叠：一个时刻只能属于一个时段，请调整其中一个的开始或结束时间',
    );
    await i18n.changeLanguage('en');
    expect(spanProblemText(problem!, t)).toMatch(
      /^Valley 00:00–10:00 and Peak 08:00–12:00 overlap over 08:00–10:00/,
    );
    await i18n.changeLanguage('es');
    expect(spanProblemText(problem!, t)).toContain('se solapan en 08:00–10:00');
    await i18n.changeLanguage('zh');
  });

  it('a band inside another overlaps for its own length; gaps and empty bands are named too', () => {
    expect(
      spanProblem([
        { band: 'flat', from: '00:00', to: '24:00' },
        { band: 'tip', from: '10:00', to: '11:00' },
      ]),
    ).toMatchObject({ kind: 'overlap', from: '10:00', to: '11:00' });
    expect(
      spanProblem([
        { band: 'flat', from: '00:00', to: '08:00' },
        { band: 'peak', from: '09:00', to: '24:00' },
      ]),
    ).toEqual({ kind: 'gap', from: '08:00', to: '09:00' });
    expect(spanProblem([{ band: 'flat', from: '00:00', to: '20:00' }])).toEqual({
      kind: 'gap',
      from: '20:00',
      to: '24:00',
    });
    const empty = spanProblem([
      { band: 'flat', from: '00:00', to: '24:00' },
      { band: 'peak', from: '22:00', to: '06:00' },
    ]);
    expect(empty).toMatchObject({ kind: 'empty' });
    expect(spanProblemText(empty!, t)).toBe(
      '峰 22:00–06:00 的结束时间须晚于开始时间（跨零点的时段请分成两段）',
    );
    // A row still being typed is not yet a problem; a whole day is none.
    expect(spanProblem([{ band: 'flat', from: '00:00', to: '2' }])).toBeNull();
    expect(spanProblem([{ band: 'flat', from: '00:00', to: '24:00' }])).toBeNull();
  });
});
