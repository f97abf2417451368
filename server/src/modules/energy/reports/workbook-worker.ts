import ExcelJS from 'exceljs';
import { HEADING_ROWS, NUMBER_FORMAT, type ReportBook } from './output.ts';

/**
 * Runs in the worker pool (shared/worker-pool.ts): a report's workbook from its sheets, the title,
 * period and plant above the table, the header row bold and frozen with the time column, every
 * value cell a number in its column's format (two decimals, counts whole).
 */
export default async function build(book: ReportBook): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Kilowatch';
  workbook.title = book.title;
  for (const spec of book.sheets) {
    const headerRow = HEADING_ROWS + 1;
    const sheet = workbook.addWorksheet(spec.name, {
      views: [{ state: 'frozen', ySplit: headerRow, xSplit: 1 }],
    });
    sheet.columns = spec.columns.map((c) => ({ width: c.width }));
    spec.heading.forEach((text, i) => {
      sheet.getCell(i + 1, 1).value = text;
    });
    sheet.getCell(1, 1).font = { bold: true, size: 14 };
    const header = sheet.getRow(headerRow);
    header.values = spec.columns.map((c) => c.header);
    header.font = { bold: true };
    spec.rows.forEach((values, r) => {
      const row = sheet.getRow(headerRow + 1 + r);
      row.values = values;
      for (let i = 1; i < spec.columns.length; i++)
        row.getCell(i + 1).numFmt = spec.columns[i]?.numFmt ?? NUMBER_FORMAT;
    });
  }
  if (book.empty) workbook.addWorksheet(book.empty.name).addRow([book.empty.text]);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}
