import ExcelJS from 'exceljs';
import { NUMBER_FORMAT, type ReportBook } from './output.ts';

/**
 * Runs in the worker pool (shared/worker-pool.ts): a report's workbook from its sheets, the
 * header row bold and frozen with the time column, every value column at two decimals.
 */
export default async function build(book: ReportBook): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Kilowatch';
  workbook.title = book.title;
  for (const spec of book.sheets) {
    const sheet = workbook.addWorksheet(spec.name, { views: [{ state: 'frozen', ySplit: 1, xSplit: 1 }] });
    sheet.columns = spec.columns.map((c, i) => ({
      header: c.header,
      key: i === 0 ? 'time' : `c${i - 1}`,
      width: c.width,
    }));
    sheet.getRow(1).font = { bold: true };
    for (const row of spec.rows) sheet.addRow(row);
    for (let i = 1; i < spec.columns.length; i++) sheet.getColumn(i + 1).numFmt = NUMBER_FORMAT;
  }
  if (book.empty) workbook.addWorksheet(book.empty.name).addRow([book.empty.text]);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}
