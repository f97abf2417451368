import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { NUMBER_FORMAT, tableWriter } from '../sheets.ts';
import { HEADING_ROWS, type ReportBook } from './output.ts';

/**
 * Runs in the worker pool (shared/worker-pool.ts): a report's workbook from its sheets through the
 * one sheet writer (../sheets.ts): the title, period and plant above the table, the header row
 * bold and frozen with the time column, every value cell a number in its column's format (two
 * decimals, counts whole).
 */
export default async function build(book: ReportBook): Promise<Uint8Array> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = once(out, 'end');
  const writer = tableWriter('xlsx', out, book.title);
  for (const spec of book.sheets) {
    writer.sheet({
      name: spec.name,
      frozen: { x: 1, y: HEADING_ROWS + 1 },
      heading: spec.heading,
      widths: spec.columns.map((c) => c.width),
      formats: spec.columns.map((c, i) => (i === 0 ? undefined : (c.numFmt ?? NUMBER_FORMAT))),
    });
    await writer.row(spec.columns.map((c) => c.header));
    for (const row of spec.rows) await writer.row(row);
  }
  if (book.empty) {
    writer.sheet({ name: book.empty.name });
    await writer.row([book.empty.text]);
  }
  await writer.end();
  await ended;
  return new Uint8Array(Buffer.concat(chunks));
}
