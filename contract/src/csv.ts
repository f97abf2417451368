/**
 * The one CSV cell writer of the server's exports and the console's chart exports (RFC 4180
 * quoting). A text cell beginning with = + - @, a tab or a carriage return is made inert with a
 * leading apostrophe: a device named `=HYPERLINK(…)` must not become a formula in Excel or a
 * spreadsheet that opens the file. Numbers are values, not text: a negative one stays a number.
 */

export type CsvCell = string | number | null;

/** A text cell a spreadsheet cannot read as a formula: a leading apostrophe when it would. */
export const inertText = (text: string): string => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

/** A text cell: neutralised when a spreadsheet would read it as a formula, quoted when needed. */
export function csvText(text: string): string {
  const safe = inertText(text);
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * One CSV line without its line ending: null empty, numbers as `number` prints them (full
 * precision unless told), text through csvText.
 */
export function csvLine(cells: readonly CsvCell[], number: (value: number) => string = String): string {
  return cells
    .map((cell) => (cell === null ? '' : typeof cell === 'number' ? number(cell) : csvText(cell)))
    .join(',');
}
