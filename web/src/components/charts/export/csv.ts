import { formatZoned, type Sheet } from './sheet.ts';

/** Yields to the browser between chunks so a long export keeps the page alive and reports progress. */
export const CHUNK_ROWS = 2000;
export const nextTick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export type Progress = (done: number, total: number) => void;

/**
 * A text cell as a spreadsheet should read it: quoted when needed (RFC 4180), and a leading
 * = + - @ made inert — a device named `=HYPERLINK(…)` must not become a formula.
 */
function textField(text: string): string {
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * CSV of a sheet: UTF-8 with a byte order mark (Excel reads Chinese headers right), CRLF lines,
 * times printed in the plant's zone, numbers as they are (full precision), empty for no value.
 */
export async function toCsv(sheet: Sheet, timeZone: string, progress?: Progress): Promise<string> {
  const lines = [sheet.columns.map((c) => textField(c.header)).join(',')];
  for (let i = 0; i < sheet.rows.length; i++) {
    const row = sheet.rows[i]!;
    lines.push(
      row
        .map((cell, j) => {
          if (cell === null) return '';
          const kind = sheet.columns[j]?.kind;
          if (kind === 'time' && typeof cell === 'number') return formatZoned(cell, timeZone);
          if (typeof cell === 'number') return Number.isFinite(cell) ? String(cell) : '';
          return textField(cell);
        })
        .join(','),
    );
    if ((i + 1) % CHUNK_ROWS === 0) {
      progress?.(i + 1, sheet.rows.length);
      await nextTick();
    }
  }
  progress?.(sheet.rows.length, sheet.rows.length);
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
