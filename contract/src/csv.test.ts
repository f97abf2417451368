import { describe, expect, it } from 'vitest';
import { csvLine, csvText } from './csv.ts';

describe('csvText', () => {
  it.each([
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
    ['+1+2', "'+1+2"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tcmd', "'\tcmd"],
    ['\r=1', `"'\r=1"`],
    ['电表 1', '电表 1'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['', ''],
  ])('writes %j as %j', (text, cell) => {
    expect(csvText(text)).toBe(cell);
  });
});

describe('csvLine', () => {
  it('keeps numbers, negative ones included, as numbers and leaves no value empty', () => {
    expect(csvLine(['=1+1', -12.5, null, 3])).toBe("'=1+1,-12.5,,3");
    expect(csvLine([-1.234, 'x'], (n) => n.toFixed(2))).toBe('-1.23,x');
  });
});
