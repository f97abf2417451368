import { csvLine } from '@kilowatch/contract';
import { formatZoned, type Sheet } from './sheet.ts';

/** Yields to the browser between chunks so a long export keeps the page alive and reports progress. */
export const CHUNK_ROWS = 2000;
export const nextTick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export type Progress = (done: number, total: number) => void;

/** Non-finite numbers have no value to print. */
const finite = (value: number) => (Number.isFinite(value) ? String(value) : '');

/**
 * CSV of a sheet: UTF-8 with a byte order mark (Excel reads Chinese headers right), CRLF lines,
 * times printed in the plant's zone, numbers as they are (full precision), empty for no value;
 * cells through the one writer of contract/src/csv.ts (formulas made inert).
 */
export async function toCsv(sheet: Sheet, timeZone: string, progress?: Progress): Promise<string> {
  const lines = [csvLine(sheet.columns.map((c) => c.header))];
  for (let i = 0; i < sheet.rows.length; i++) {
    const row = sheet.rows[i]!;
    lines.push(
      csvLine(
        row.map((cell, j) =>
          sheet.columns[j]?.kind === 'time' && typeof cell === 'number' ? formatZoned(cell, timeZone) : cell,
        ),
        finite,
      ),
    );
    if ((i + 1) % CHUNK_ROWS === 0) {
      progress?.(i + 1, sheet.rows.length);
      await nextTick();
    }
  }
  progress?.(sheet.rows.length, sheet.rows.length);
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
