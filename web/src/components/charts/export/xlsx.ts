import { CHUNK_ROWS, nextTick, type Progress } from './csv.ts';
import { type Sheet, zonedParts } from './sheet.ts';

/**
 * An .xlsx workbook of a sheet, written by exceljs loaded on demand (its ~250 KB gzip stay out
 * of every screen's first load). Times are real spreadsheet dates showing the plant's wall
 * clock (Excel dates carry no zone; the header names it), numbers are numbers shown with the
 * console's 2 decimals, the header row is bold and stays in view.
 */
export async function toXlsx(sheet: Sheet, timeZone: string, progress?: Progress): Promise<ArrayBuffer> {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  workbook.created = new Date();
  // Sheet names: at most 31 characters, none of \ / ? * [ ] :
  const ws = workbook.addWorksheet(sheet.title.replace(/[\\/?*[\]:]/g, ' ').slice(0, 31) || 'Sheet1', {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  ws.columns = sheet.columns.map((c) => ({
    header: c.header,
    width: Math.min(60, Math.max(c.kind === 'time' ? 20 : 12, c.header.length * 1.6)),
    style:
      c.kind === 'time' ? { numFmt: 'yyyy-mm-dd hh:mm:ss' } : c.kind === 'number' ? { numFmt: '0.00' } : {},
  }));
  ws.getRow(1).font = { bold: true };
  const total = sheet.rows.length;
  for (let i = 0; i < total; i++) {
    const row = sheet.rows[i]!;
    ws.addRow(
      row.map((cell, j) => {
        if (cell === null) return null;
        if (sheet.columns[j]?.kind === 'time' && typeof cell === 'number') {
          const p = zonedParts(cell, timeZone);
          return new Date(Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second));
        }
        return cell;
      }),
    );
    if ((i + 1) % CHUNK_ROWS === 0) {
      progress?.(i + 1, total);
      await nextTick();
    }
  }
  progress?.(total, total);
  return workbook.xlsx.writeBuffer() as Promise<ArrayBuffer>;
}
