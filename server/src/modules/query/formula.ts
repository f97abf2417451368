/**
 * Safe arithmetic on a value `x` (spec: a report metric's `formula`, e.g. "x * 1000", "(x - 32) / 1.8").
 * Parsed here into a closure tree — never eval or Function: + - * / unary minus, parentheses,
 * decimal numbers (with exponent) and the variable x.
 */

export type Formula = (x: number) => number;

export class FormulaError extends Error {
  override name = 'FormulaError';
}

type Node = (x: number) => number;

/**
 * Compiles `text`; throws FormulaError naming the position of the first problem.
 * @example compileFormula('(x - 32) / 1.8')(212) // 100
 */
export function compileFormula(text: string): Formula {
  let i = 0;
  const skip = () => {
    while (text[i] === ' ' || text[i] === '\t') i++;
  };
  const fail = (what: string): never => {
    throw new FormulaError(`${what} at position ${i + 1}`);
  };

  function expression(): Node {
    let left = term();
    for (;;) {
      skip();
      const op = text[i];
      if (op !== '+' && op !== '-') return left;
      i++;
      const right = term();
      const l = left;
      left = op === '+' ? (x) => l(x) + right(x) : (x) => l(x) - right(x);
    }
  }

  function term(): Node {
    let left = unary();
    for (;;) {
      skip();
      const op = text[i];
      if (op !== '*' && op !== '/') return left;
      i++;
      const right = unary();
      const l = left;
      left = op === '*' ? (x) => l(x) * right(x) : (x) => l(x) / right(x);
    }
  }

  function unary(): Node {
    skip();
    if (text[i] === '-') {
      i++;
      const inner = unary();
      return (x) => -inner(x);
    }
    if (text[i] === '+') {
      i++;
      return unary();
    }
    return primary();
  }

  function primary(): Node {
    skip();
    const c = text[i];
    if (c === '(') {
      i++;
      const inner = expression();
      skip();
      if (text[i] !== ')') fail('expected ")"');
      i++;
      return inner;
    }
    if (c === 'x' || c === 'X') {
      i++;
      return (x) => x;
    }
    const match = /^(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?/.exec(text.slice(i));
    if (!match) return fail(c === undefined ? 'unexpected end' : `unexpected "${c}"`);
    i += match[0].length;
    const value = Number(match[0]);
    return () => value;
  }

  if (text.trim() === '') throw new FormulaError('empty formula');
  const root = expression();
  skip();
  if (i < text.length) fail(`unexpected "${text[i]}"`);
  return root;
}

/** Rounds to `decimals` places (spec: scale); half away from zero. */
export function roundTo(value: number, decimals: number): number {
  const f = 10 ** decimals;
  const r = Math.round(Math.abs(value) * f + Number.EPSILON * f) / f;
  return value < 0 ? -r : r;
}
