import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { IDENTIFIER_PATTERN, LANGUAGES, type Language, THING_IMPORT_COLUMNS } from '@kilowatch/contract';
import { parse as parseCsv } from 'csv-parse';
import ExcelJS from 'exceljs';
import { AppError } from '../../errors.ts';
import { type MessageKey, type MessageParams, translate } from '../../i18n/index.ts';
import { slicer } from '../../shared/slices.ts';

/** One row error of an import, still to be put into the request's language. */
export interface ImportProblem {
  row: number;
  /** The column's header as the file wrote it. */
  column: string;
  /** A required column the header lacks: named in the reader's language when answered. */
  missing?: ImportColumn;
  message: MessageKey;
  params?: MessageParams;
}

export type ImportColumn = (typeof THING_IMPORT_COLUMNS)[number];
export type ImportFormat = 'xlsx' | 'csv';

/** One data row of an import file, cells as text, with its 1-based row number in the file. */
export type ImportRow = { row: number } & Record<ImportColumn, string>;

/** Rows of one file are refused beyond this: an import is one transaction. */
export const IMPORT_MAX_ROWS = 10_000;
/** Rows read at all, blank ones included: a file of blank lines is refused without reading it all. */
export const IMPORT_MAX_LINES = 10 * IMPORT_MAX_ROWS;
/** Longest stretch of parsing between two turns of the event loop. */
const SLICE_MS = 10;
/** Bytes handed to the CSV parser at once (a few ms of work even when every byte ends a record). */
const CSV_SLICE_BYTES = 2048;

const identifierPattern = new RegExp(IDENTIFIER_PATTERN);
/** Only identifiers of this form can exist, so only they are looked up (PostgreSQL refuses NUL text). */
export const isIdentifier = (text: string): boolean => identifierPattern.test(text);
/** What a device access token may look like: URL-, MQTT- and header-safe, long enough to guess hard. */
export const ACCESS_TOKEN_PATTERN = /^[A-Za-z0-9._~-]{16,128}$/;
const MAX_LENGTH: Record<ImportColumn, number> = {
  identifier: 64,
  name: 64,
  model: 200,
  description: 500,
  region: 500,
  token: 128,
};
const REQUIRED: Record<ImportColumn, boolean> = {
  identifier: true,
  name: true,
  model: true,
  description: false,
  region: false,
  token: false,
};

/** The file could not be turned into rows at all: 400 with the reason. */
const fileError = (
  message: 'import.unreadable' | 'import.empty' | 'import.tooManyRows' | 'import.tooManyLines',
  params = {},
) => new AppError('BAD_REQUEST', 400, params, { message });

/** The format of an uploaded file, from its name; undefined for anything else. */
export const formatOf = (filename: string): ImportFormat | undefined => {
  const lower = filename.toLowerCase();
  if (lower.endsWith('.xlsx')) return 'xlsx';
  if (lower.endsWith('.csv')) return 'csv';
  return undefined;
};

const normalizeHeader = (text: string) =>
  text
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase();

/**
 * Header cells accepted for a column: its key, its label in the import template and the label
 * the devices screen shows, in every console language.
 */
const HEADER_ALIASES = new Map<string, ImportColumn>(
  THING_IMPORT_COLUMNS.flatMap((column) => [
    [column, column] as const,
    ...LANGUAGES.flatMap((lang) => [
      [normalizeHeader(translate(lang, `import.col.${column}`)), column] as const,
      [normalizeHeader(translate(lang, `import.alias.${column}`)), column] as const,
    ]),
  ]),
);

/** The delimiter of a CSV file: Excel writes ';' or tabs in some locales. */
const csvDelimiter = (firstLine: string): string => {
  if (firstLine.includes(',')) return ',';
  if (firstLine.includes(';')) return ';';
  if (firstLine.includes('\t')) return '\t';
  return ',';
};

/** `items.map(map)`, taking turns with other work: up to 30,000 problems are put into words. */
export async function inTurns<T, U>(items: readonly T[], map: (item: T) => U): Promise<U[]> {
  const breathe = slicer(SLICE_MS);
  const out: U[] = [];
  for (const item of items) {
    await breathe();
    out.push(map(item));
  }
  return out;
}

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

/**
 * The worker's entry: the server runs TypeScript through tsx, and Node 20 does not hand a loader
 * given with --import on to worker threads, so the worker registers tsx itself first.
 */
const WORKER_BOOT = `import(${JSON.stringify(
  // tsx's ESM API ("tsx/esm/api" under the import condition), found from this file, not the cwd.
  pathToFileURL(
    join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/esm/api/index.mjs'),
  ).href,
)}).then(({ register }) => { register(); return import(${JSON.stringify(
  new URL('./import-worker.ts', import.meta.url).href,
)}); })`;

type WorkerAnswer = { job: number } & (
  | { parsed: ParsedImport }
  | { refused: { code: AppError['code']; status: number; params: AppError['params']; message?: MessageKey } }
  | { failed: string }
);

/** A parser worker lives this long after its last job: starting one costs about a second. */
const WORKER_IDLE_MS = 60_000;

/** The one parser worker, started on the first import and ended when idle. */
const parser = {
  worker: undefined as Worker | undefined,
  jobs: new Map<number, (answer: WorkerAnswer | Error) => void>(),
  next: 1,
  idle: undefined as NodeJS.Timeout | undefined,

  start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_BOOT, { eval: true });
    // An idle parser must not keep the process alive.
    worker.unref();
    worker.on('message', (answer: WorkerAnswer) => {
      this.jobs.get(answer.job)?.(answer);
      this.jobs.delete(answer.job);
      this.settle();
    });
    const gone = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      for (const done of this.jobs.values()) done(error);
      this.jobs.clear();
    };
    worker.on('error', gone);
    worker.on('exit', (code) => gone(new Error(`import worker exited (${code})`)));
    this.worker = worker;
    return worker;
  },

  settle() {
    clearTimeout(this.idle);
    if (this.jobs.size > 0) return;
    this.idle = setTimeout(() => {
      const worker = this.worker;
      this.worker = undefined;
      void worker?.terminate();
    }, WORKER_IDLE_MS);
    this.idle.unref();
  },
};

/**
 * parseImportFile in a worker thread, fed with the upload as it arrives: however the file is
 * built (a spreadsheet parser works a chunk at a time, ~1,800 rows of XML in one go), the
 * server's event loop never waits for it. The upload is read to its end even when the worker
 * answered early, so the request completes.
 */
export async function parseImportUpload(source: Readable, format: ImportFormat): Promise<ParsedImport> {
  const worker = parser.start();
  clearTimeout(parser.idle);
  const job = parser.next++;
  let answered = false;
  let refuse: (error: Error) => void = () => {};
  const answer = new Promise<WorkerAnswer>((resolve, reject) => {
    refuse = reject;
    parser.jobs.set(job, (outcome) => {
      answered = true;
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    });
  });
  worker.postMessage({ job, start: format });
  const fed = (async () => {
    try {
      for await (const chunk of source.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
        if (!answered) worker.postMessage({ job, chunk });
      }
    } catch {
      // The upload broke off (a multipart body cut short): no more bytes will come, so the worker
      // would wait for them forever. It is told the file ended, and the request is refused.
      if (!answered) {
        answered = true;
        worker.postMessage({ job, end: true });
        refuse(new AppError('BAD_REQUEST', 400, {}, { message: 'import.unreadable' }));
      }
      return;
    }
    if (!answered) worker.postMessage({ job, end: true });
  })();
  // Awaited below once the worker answers; when the worker fails first, that failure is the answer.
  fed.catch(() => undefined);
  const outcome = await answer;
  await fed;
  if ('failed' in outcome) throw new Error(`import worker failed: ${outcome.failed}`);
  if ('refused' in outcome) {
    const { code, status, params, message } = outcome.refused;
    throw new AppError(code, status, params, message ? { message } : {});
  }
  return outcome.parsed;
}

export interface ModelName {
  id: number;
  name: string;
  categoryName: string;
}

/**
 * Finds the model a cell names: a model name (any case) that is unique across categories, or
 * `Category/Model` when the name is ambiguous.
 */
function modelResolver(models: readonly ModelName[]) {
  const byName = new Map<string, ModelName[]>();
  const byPath = new Map<string, ModelName>();
  for (const model of models) {
    const key = model.name.toLowerCase();
    byName.set(key, [...(byName.get(key) ?? []), model]);
    byPath.set(`${model.categoryName.toLowerCase()}/${key}`, model);
  }
  return (text: string): ModelName | { ambiguous: ModelName[] } | undefined => {
    const named = byName.get(text.toLowerCase());
    if (named?.length === 1) return named[0];
    // Any '/' may separate category and model: either name may contain one itself.
    for (let i = text.indexOf('/'); i >= 0; i = text.indexOf('/', i + 1)) {
      const found = byPath.get(
        `${text.slice(0, i).trim().toLowerCase()}/${text
          .slice(i + 1)
          .trim()
          .toLowerCase()}`,
      );
      if (found) return found;
    }
    return named && named.length > 1 ? { ambiguous: named } : undefined;
  };
}

export interface RegionNode {
  id: number;
  parentId: number | null;
  name: string;
}

/**
 * Finds the region a cell names: its path from the top (`一车间/一号线`, any case, spaces around
 * '/' ignored), or a name that only one region has.
 */
function regionResolver(regions: readonly RegionNode[]) {
  const byId = new Map(regions.map((r) => [r.id, r]));
  const pathOf = (region: RegionNode): string[] => {
    const names: string[] = [];
    const seen = new Set<number>();
    for (let r: RegionNode | undefined = region; r && !seen.has(r.id); r = byId.get(r.parentId ?? 0)) {
      seen.add(r.id);
      names.unshift(r.name);
    }
    return names;
  };
  const key = (names: readonly string[]) => names.map((n) => n.trim().toLowerCase()).join('/');
  const byPath = new Map<string, RegionNode>();
  const byName = new Map<string, RegionNode[]>();
  for (const region of regions) {
    byPath.set(key(pathOf(region)), region);
    const name = region.name.trim().toLowerCase();
    byName.set(name, [...(byName.get(name) ?? []), region]);
  }
  return (text: string): RegionNode | { ambiguous: string[] } | undefined => {
    const path = byPath.get(key(text.split('/')));
    if (path) return path;
    const named = byName.get(text.trim().toLowerCase());
    if (named?.length === 1) return named[0];
    return named && named.length > 1 ? { ambiguous: named.map((r) => pathOf(r).join('/')) } : undefined;
  };
}

export interface ImportThing {
  row: number;
  identifier: string;
  name: string;
  description: string;
  modelId: number;
  regionId: number | null;
  accessToken: string | null;
}

/**
 * Checks every row (required cells, lengths, identifier and token patterns, model, region,
 * duplicates inside the file and against what exists) and returns the things to create, or
 * every problem found. Problems name the column by the header the file gave it.
 */
export async function validateImportRows(
  rows: readonly ImportRow[],
  headers: Partial<Record<ImportColumn, string>>,
  known: {
    models: readonly ModelName[];
    regions: readonly RegionNode[];
    identifiers: ReadonlySet<string>;
    tokens: ReadonlySet<string>;
  },
): Promise<{ things: ImportThing[]; problems: ImportProblem[] }> {
  const breathe = slicer(SLICE_MS);
  const resolveModel = modelResolver(known.models);
  const resolveRegion = regionResolver(known.regions);
  const problems: ImportProblem[] = [];
  const header = (column: ImportColumn) => headers[column] ?? column;
  const firstRow = new Map<string, number>();
  const tokenRow = new Map<string, number>();
  const things: ImportThing[] = [];
  for (const row of rows) {
    await breathe();
    const before = problems.length;
    const problem = (
      column: ImportColumn,
      message: ImportProblem['message'],
      params?: ImportProblem['params'],
    ) => problems.push({ row: row.row, column: header(column), message, ...(params ? { params } : {}) });
    for (const column of THING_IMPORT_COLUMNS) {
      const value = row[column];
      if (REQUIRED[column] && value === '') problem(column, 'import.required');
      // Same answer on both databases: PostgreSQL cannot store it, SQLite would.
      else if (value.includes('\u0000')) problem(column, 'import.nul');
      else if (value.length > MAX_LENGTH[column]) {
        problem(column, 'import.tooLong', { limit: MAX_LENGTH[column] });
      }
    }
    const { identifier, token } = row;
    if (identifier !== '' && identifier.length <= MAX_LENGTH.identifier && !identifier.includes('\u0000')) {
      if (!identifierPattern.test(identifier)) {
        problem('identifier', 'import.badIdentifier');
      } else if (firstRow.has(identifier)) {
        problem('identifier', 'import.duplicateInFile', { identifier, row: firstRow.get(identifier)! });
      } else if (known.identifiers.has(identifier)) {
        problem('identifier', 'import.identifierExists', { identifier });
      }
      if (!firstRow.has(identifier)) firstRow.set(identifier, row.row);
    }
    // Tokens are secrets: problems never repeat them.
    if (token !== '' && token.length <= MAX_LENGTH.token) {
      if (!ACCESS_TOKEN_PATTERN.test(token)) {
        problem('token', 'import.badToken');
      } else if (tokenRow.has(token)) {
        problem('token', 'import.tokenDuplicateInFile', { row: tokenRow.get(token)! });
      } else if (known.tokens.has(token)) {
        problem('token', 'import.tokenExists');
      }
      if (!tokenRow.has(token)) tokenRow.set(token, row.row);
    }
    let modelId: number | undefined;
    if (row.model !== '' && row.model.length <= MAX_LENGTH.model) {
      const model = resolveModel(row.model);
      if (model === undefined) {
        problem('model', 'import.unknownModel', { model: row.model });
      } else if ('ambiguous' in model) {
        problem('model', 'import.ambiguousModel', {
          model: row.model,
          categories: model.ambiguous.map((m) => m.categoryName).join(', '),
        });
      } else {
        modelId = model.id;
      }
    }
    let regionId: number | null = null;
    if (row.region !== '' && row.region.length <= MAX_LENGTH.region) {
      const region = resolveRegion(row.region);
      if (region === undefined) {
        problem('region', 'import.unknownRegion', { region: row.region });
      } else if ('ambiguous' in region) {
        problem('region', 'import.ambiguousRegion', {
          region: row.region,
          paths: region.ambiguous.join(', '),
        });
      } else {
        regionId = region.id;
      }
    }
    if (problems.length === before && modelId !== undefined) {
      things.push({
        row: row.row,
        identifier,
        name: row.name,
        description: row.description,
        modelId,
        regionId,
        accessToken: token === '' ? null : token,
      });
    }
  }
  return { things, problems };
}

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * The import template: the header row in `language` (every language's labels and the column keys
 * are accepted back), and in the xlsx a sheet explaining each column and ones listing the
 * existing models and region paths.
 */
export async function buildImportTemplate(
  format: ImportFormat,
  language: Language,
  models: readonly { category: string; model: string }[],
  regions: readonly string[],
): Promise<{ body: Buffer; contentType: string; filename: string }> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('things');
  sheet.addRow(THING_IMPORT_COLUMNS.map((column) => translate(language, `import.col.${column}`)));
  if (format === 'csv') {
    const csv = Buffer.from(await workbook.csv.writeBuffer());
    // A BOM so that Excel opens the UTF-8 file with Chinese names intact.
    return {
      body: Buffer.concat([Buffer.from('\uFEFF', 'utf8'), csv]),
      contentType: 'text/csv; charset=utf-8',
      filename: 'things-import-template.csv',
    };
  }
  sheet.getRow(1).font = { bold: true };
  sheet.columns = THING_IMPORT_COLUMNS.map((key) => ({ key, width: key === 'description' ? 40 : 24 }));
  const help = workbook.addWorksheet('help');
  help.addRow(['column', translate(language, 'import.col.name'), '']).font = { bold: true };
  for (const column of THING_IMPORT_COLUMNS) {
    help.addRow([
      column,
      translate(language, `import.col.${column}`),
      translate(language, `import.help.${column}`),
    ]);
  }
  help.columns = [{ width: 16 }, { width: 16 }, { width: 80 }];
  const list = workbook.addWorksheet('models');
  list.addRow(['category', 'model', 'category/model']).font = { bold: true };
  for (const m of models) list.addRow([m.category, m.model, `${m.category}/${m.model}`]);
  list.columns = [{ width: 24 }, { width: 24 }, { width: 40 }];
  const regionList = workbook.addWorksheet('regions');
  regionList.addRow(['region']).font = { bold: true };
  for (const path of regions) regionList.addRow([path]);
  regionList.columns = [{ width: 48 }];
  return {
    body: Buffer.from(await workbook.xlsx.writeBuffer()),
    contentType: XLSX_TYPE,
    filename: 'things-import-template.xlsx',
  };
}
