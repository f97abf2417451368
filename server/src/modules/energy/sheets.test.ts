import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { tableWriter } from './sheets.ts';

const HOSTILE = ['=HYPERLINK("http://evil","电表")', '+M1', '-cmd', '@SUM(A1)', '\tx', '\rx'];

/** Everything `write` sends through a writer of `format`. */
async function written(format: 'csv' | 'xlsx', write: (w: ReturnType<typeof tableWriter>) => Promise<void>) {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = once(out, 'end');
  const writer = tableWriter(format, out);
  await write(writer);
  await writer.end();
  await ended;
  return Buffer.concat(chunks);
}

describe('the sheet writer (csv and xlsx)', () => {
  it('makes CSV cells that start a formula inert and keeps negative numbers as numbers', async () => {
    const file = await written('csv', async (w) => {
      w.sheet({ name: 'Statistics' });
      await w.row([...HOSTILE.slice(0, 5), -12.345, null]);
    });
    const text = file.toString('utf8').replace(/^\uFEFF/, '');
    expect(text).toBe(`"'=HYPERLINK(""http://evil"",""电表"")",'+M1,'-cmd,'@SUM(A1),'\tx,-12.35,\r\n`);
  });

  it('makes xlsx text cells that start a formula inert, in the heading and the table alike', async () => {
    const file = await written('xlsx', async (w) => {
      w.sheet({ name: 'Report', frozen: { x: 1, y: 3 }, heading: ['=1+1'] });
      await w.row(HOSTILE);
      await w.row(['plain', -5, null]);
    });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Report');
    if (!sheet) throw new Error('the sheet is missing');
    expect(sheet.getCell('A1').value).toBe("'=1+1");
    expect(sheet.getRow(2).values).toEqual([]);
    // (XML reads a carriage return back as a line feed: the apostrophe is what counts.)
    const cells = (sheet.getRow(3).values as string[]).slice(1).map((v) => v.replace(/\n/g, '\r'));
    expect(cells).toEqual(HOSTILE.map((text) => `'${text}`));
    expect(sheet.getRow(3).font).toMatchObject({ bold: true });
    // Text that only looks like a formula in the middle, and numbers, are left as they are.
    expect(sheet.getRow(4).values).toEqual([undefined, 'plain', -5]);
    expect(sheet.getCell('B4').numFmt).toBe('#,##0.00');
    for (const cell of [sheet.getCell('A3'), sheet.getCell('A1')]) expect(cell?.formula).toBeUndefined();
  });
});
