import { Readable } from 'node:stream';
import { THING_IMPORT_COLUMNS } from '@kilowatch/contract';
import { parse as parseCsv } from 'csv-parse';
import ExcelJS from 'exceljs';
import { AppError } from '../../../errors.ts';
import { slicer } from '../../../shared/slices.ts';
import {
  CSV_SLICE_BYTES,
  csvDelimiter,
  fileError,
  HEADER_ALIASES,
  IMPORT_MAX_LINES,
  IMPORT_MAX_ROWS,
  type ImportColumn,
  type ImportFormat,
  type ImportProblem,
  type ImportRow,
  normalizeHeader,
  REQUIRED,
  SLICE_MS,
} from './columns.ts';

interface RawRow {
  row: number;
  cells: (index: number) => string;
  /** 1-based indexes of the non-empty cells. */
  filled: () => number[];
}

const cellText = (row: ExcelJS.Row, index: number): string => {
  const cell = row.getCell(index);
  const value = cell.value;
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.trim();
  try {
    return cell.text.trim();
  } catch {
    return String(value).trim();
  }
};

/** The whole upload (an xlsx is a zip, at most 5 MB, collected before it is read). */
async function buffered(source: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of source) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * exceljs's streaming reader over a whole zip. Zip writers (exceljs's own among them) may store a
 * sheet before xl/workbook.xml; the reader then looks up the sheet's name in a workbook model it
 * has not read yet and throws. Without the model a sheet keeps its file number as id, which is all
 * this reader needs.
 *
 * A sheet that comes before the shared strings or the workbook's relations would be spooled to a
 * temp file and read after the zip; for a sheet it does not emit, the reader opens a stream on that
 * file and deletes the file at once, and when the delete wins (a busy thread pool) the stream's
 * ENOENT is thrown with nobody listening: the import worker died with every upload it was parsing
 * (a 500). Given both up front, the reader reads every sheet straight from the zip and never
 * spools. The shared strings are the first pass's (see xlsxRows); the relations only name sheets.
 */
function workbookReader(zip: Buffer, worksheets: 'emit' | 'ignore', sharedStrings: unknown[] = []) {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([zip]), {
    worksheets,
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'ignore',
  });
  const state = reader as unknown as {
    model?: { sheets: unknown[] };
    sharedStrings?: unknown[];
    workbookRels?: unknown[];
  };
  state.model ??= { sheets: [] };
  state.sharedStrings = sharedStrings;
  state.workbookRels = [];
  return reader as typeof reader & { sharedStrings: unknown[] };
}

async function* xlsxRows(source: Readable): AsyncGenerator<RawRow> {
  // Excel and exceljs store the sheets before the shared strings; exceljs's reader then spools each
  // sheet to a temp file and reads it after the zip, and that path intermittently lost the shared
  // strings (header cells came back as `{ sharedString: 0 }`). The strings are read in a first pass
  // and handed to the reader, so it reads the sheets straight from the zip.
  const zip = await buffered(source);
  const strings = workbookReader(zip, 'ignore');
  for await (const _sheet of strings) {
    // Nothing is emitted: this pass only fills `strings.sharedStrings`.
  }
  const reader = workbookReader(zip, 'emit', strings.sharedStrings);
  for await (const sheet of reader) {
    // The things are on the first sheet, xl/worksheets/sheet1.xml; the zip may hold the
    // template's help, model and region sheets before it. Others are skipped unread.
    if (String((sheet as unknown as { id: unknown }).id) !== '1') continue;
    for await (const row of sheet as AsyncIterable<ExcelJS.Row>) {
      yield {
        row: row.number,
        cells: (index) => cellText(row, index),
        filled: () => {
          const found: number[] = [];
          row.eachCell({ includeEmpty: false }, (_cell, index) => found.push(index));
          return found;
        },
      };
    }
    return;
  }
}

/** Records of a CSV file, read with csv-parse as they arrive; every cell is kept as text. */
async function* csvRows(source: Readable): AsyncGenerator<RawRow> {
  // The delimiter is guessed from the first line, so hold back the chunks until it is complete.
  // Not destroyed when left early: the route drains what is left of the request body.
  const iterator = source.iterator({ destroyOnReturn: false }) as AsyncIterator<Buffer>;
  const head: Buffer[] = [];
  let headBytes = 0;
  for (;;) {
    const next = await iterator.next();
    if (next.done) break;
    head.push(next.value);
    headBytes += next.value.length;
    if (next.value.includes(0x0a) || headBytes >= 64 * 1024) break;
  }
  const headText = Buffer.concat(head).toString('utf8');
  const parser = parseCsv({
    delimiter: csvDelimiter(headText.slice(0, headText.indexOf('\n') >>> 0)),
    bom: true,
    relax_column_count: true,
    relax_quotes: true,
    // Blank lines are skipped inside the parser (and still counted in info.empty_lines).
    skip_empty_lines: true,
    info: true,
    // A record longer than the longest row the template allows many times over is not a row.
    max_record_size: 64 * 1024,
  });
  // csv-parse handles a chunk in one go, so it is given small slices, piped so that it pauses
  // whenever its reader is behind. Lines are counted here: blank ones never reach the reader.
  // Slices pass as promise callbacks only, so the feeder takes its own turns of the event loop.
  let lines = 0;
  const breathe = slicer(SLICE_MS);
  const slices = Readable.from(
    (async function* () {
      const chunks = (async function* () {
        yield* head;
        for (;;) {
          const next = await iterator.next();
          if (next.done) return;
          yield next.value;
        }
      })();
      for await (const chunk of chunks) {
        for (let at = 0; at < chunk.length; at += CSV_SLICE_BYTES) {
          await breathe();
          const part = chunk.subarray(at, at + CSV_SLICE_BYTES);
          for (let i = part.indexOf(0x0a); i >= 0; i = part.indexOf(0x0a, i + 1)) lines += 1;
          if (lines > IMPORT_MAX_LINES) throw fileError('import.tooManyLines', { limit: IMPORT_MAX_LINES });
          yield part;
        }
      }
    })(),
    { objectMode: false },
  );
  slices.on('error', (error) => parser.destroy(error));
  slices.pipe(parser);
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: string[];
      info: { records: number; empty_lines: number };
    }>) {
      yield {
        // The file's own row number, as a spreadsheet counts it (a quoted line break stays in its row).
        row: info.records + info.empty_lines,
        cells: (index) => (record[index - 1] ?? '').trim(),
        filled: () => record.flatMap((cell, i) => (cell.trim() ? [i + 1] : [])),
      };
    }
  } finally {
    // Stop feeding a parser nobody reads any more (the caller stopped early).
    slices.destroy();
    parser.destroy();
    await iterator.return?.();
  }
}

export interface ParsedImport {
  rows: ImportRow[];
  /** Each column found, with its header as the user wrote it. */
  headers: Partial<Record<ImportColumn, string>>;
  /** Problems of the file's shape (a missing column), reported like row errors. */
  problems: ImportProblem[];
}

/**
 * The data rows of an import file, read as it arrives: row 1 is the header (columns found by key
 * or label, in any order); blank rows are skipped; row numbers are the file's own. Reading stops
 * at the first row beyond IMPORT_MAX_ROWS (or IMPORT_MAX_LINES blank or not), and yields to the
 * event loop every SLICE_MS so no upload stalls other requests.
 */
export async function parseImportFile(source: Readable, format: ImportFormat): Promise<ParsedImport> {
  const breathe = slicer(SLICE_MS);
  const columns = new Map<ImportColumn, number>();
  const headers: Partial<Record<ImportColumn, string>> = {};
  const rows: ImportRow[] = [];
  let lines = 0;
  let headerSeen = false;
  try {
    for await (const raw of format === 'xlsx' ? xlsxRows(source) : csvRows(source)) {
      await breathe();
      lines += 1;
      if (lines > IMPORT_MAX_LINES) throw fileError('import.tooManyLines', { limit: IMPORT_MAX_LINES });
      if (!headerSeen) {
        headerSeen = true;
        if (raw.row === 1) {
          for (const index of raw.filled()) {
            const text = raw.cells(index);
            const column = HEADER_ALIASES.get(normalizeHeader(text));
            if (column && !columns.has(column)) {
              columns.set(column, index);
              headers[column] = text.replace(/^\uFEFF/, '');
            }
          }
        }
        const missing = THING_IMPORT_COLUMNS.filter((c) => REQUIRED[c] && !columns.has(c));
        if (missing.length > 0) {
          return {
            rows: [],
            headers,
            problems: missing.map((column) => ({
              row: 1,
              column,
              missing: column,
              message: 'import.missingColumn',
            })),
          };
        }
        if (raw.row === 1) continue;
      }
      const item = { row: raw.row } as ImportRow;
      let blank = true;
      for (const column of THING_IMPORT_COLUMNS) {
        const index = columns.get(column);
        item[column] = index === undefined ? '' : raw.cells(index);
        if (item[column] !== '') blank = false;
      }
      if (blank) continue;
      rows.push(item);
      if (rows.length > IMPORT_MAX_ROWS) throw fileError('import.tooManyRows', { limit: IMPORT_MAX_ROWS });
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw fileError('import.unreadable');
  }
  if (rows.length === 0) throw fileError('import.empty');
  return { rows, headers, problems: [] };
}
