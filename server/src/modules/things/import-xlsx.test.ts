import fs from 'node:fs';
import { tmpdir } from 'node:os';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import ExcelJS from 'exceljs';
import { afterEach, describe, expect, it } from 'vitest';
import { parseImportFile } from './import/index.ts';

/** exceljs writes the sheets of a workbook before its shared strings, as Excel does. */
async function workbook(sheets: (string | number)[][][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  sheets.forEach((rows, i) => {
    const sheet = book.addWorksheet(`s${i + 1}`);
    for (const row of rows) sheet.addRow(row);
  });
  return Buffer.from(await book.xlsx.writeBuffer());
}

const open = fs.open;
const stray: unknown[] = [];
const collect = (error: unknown) => stray.push(error);

afterEach(() => {
  fs.open = open;
  process.off('uncaughtException', collect);
  stray.length = 0;
});

/**
 * The import worker dies on an error nobody listens to, and takes every upload it is parsing with
 * it (a 500). exceljs's streaming reader, given sheets before the shared strings, spooled each
 * sheet to a temp file, and for a sheet it was not asked to emit opened a read stream on that file
 * and deleted the file at once: when the delete won the race with the open (a busy thread pool),
 * the stream's ENOENT was thrown in the worker. Opening temp files late here makes that race lost
 * every time.
 */
describe('xlsx reading under a slow file system', () => {
  it('reads the first sheet of a many-sheet workbook with no error left behind', async () => {
    const file = await workbook([
      [
        ['identifier', 'name', 'model'],
        ['X-1', '一号机', 'A型'],
      ],
      [['help', 'text']],
      [['model', 'list']],
    ]);
    process.on('uncaughtException', collect);
    let spooled = 0;
    const slowTmp = ((path: fs.PathLike, ...rest: unknown[]) => {
      const later = () => (open as (...args: unknown[]) => void)(path, ...rest);
      if (String(path).startsWith(tmpdir())) {
        spooled += 1;
        setTimeout(later, 50);
      } else later();
    }) as typeof fs.open;
    fs.open = slowTmp;
    const parsed = await parseImportFile(Readable.from([file]), 'xlsx');
    await sleep(200);
    expect(parsed.rows).toEqual([
      { row: 2, identifier: 'X-1', name: '一号机', model: 'A型', description: '', region: '', token: '' },
    ]);
    expect(stray).toEqual([]);
    expect(spooled).toBe(0);
  });
});
