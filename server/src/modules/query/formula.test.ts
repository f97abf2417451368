import { describe, expect, it } from 'vitest';
import { compileFormula, FormulaError, roundTo } from './formula.ts';

describe('formula', () => {
  it('computes + - * / with precedence, unary minus, parentheses, decimals and exponents', () => {
    expect(compileFormula('x')(3)).toBe(3);
    expect(compileFormula('x * 1000')(1.5)).toBe(1500);
    expect(compileFormula('1 + 2 * x')(3)).toBe(7);
    expect(compileFormula('(1 + 2) * X')(3)).toBe(9);
    expect(compileFormula('(x - 32) / 1.8')(212)).toBe(100);
    expect(compileFormula('-x + -(-2)')(5)).toBe(-3);
    expect(compileFormula('x / 3.6e3')(7200)).toBe(2);
    expect(compileFormula(' .5*x ')(4)).toBe(2);
    expect(compileFormula('10 - 4 - 3')(0)).toBe(3);
    expect(compileFormula('24 / 4 / 2')(0)).toBe(3);
  });

  it('refuses anything else, naming the position', () => {
    for (const text of ['', 'x +', '(x', 'x)', 'x ** 2', 'y', 'Math.max(x)', 'x; 1', '1 2', 'constructor']) {
      expect(() => compileFormula(text), text).toThrow(FormulaError);
    }
    expect(() => compileFormula('x + $')).toThrow('unexpected "$" at position 5');
  });

  it('rounds half away from zero', () => {
    expect(roundTo(1.005, 2)).toBe(1.01);
    expect(roundTo(-1.005, 2)).toBe(-1.01);
    expect(roundTo(2.5, 0)).toBe(3);
    expect(roundTo(1 / 3, 4)).toBe(0.3333);
  });
});
