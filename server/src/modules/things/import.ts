import { Readable } from 'node:stream';
import { IDENTIFIER_PATTERN, LANGUAGES, type Language, THING_IMPORT_COLUMNS } from '@kilowatch/contract';
import ExcelJS from 'exceljs';
import { AppError } from '../../errors.ts';
import { translate } from '../../i18n/index.ts';
import type { ImportProblem } from './service.ts';

export type ImportColumn = (typeof THING_IMPORT_COLUMNS)[number];
export type ImportFormat = 'xlsx' | 'csv';

/** One data row of an import file, cells as text, with its 1-based row number in the file. */
export interface ImportRow {
  row: number;
  identifier: string;
  name: string;
  model: string;
  description: string;
}

/** Rows of one file are refused beyond this: an import is one transaction. */
export const IMPORT_MAX_ROWS = 10_000;

const identifierPattern = new RegExp(IDENTIFIER_PATTERN);
/** Only identifiers of this form can exist, so only they are looked up (PostgreSQL refuses NUL text). */
export const isIdentifier = (text: string): boolean => identifierPattern.test(text);
const MAX_LENGTH: Record<ImportColumn, number> = { identifier: 64, name: 64, model: 200, description: 500 };
const REQUIRED: Record<ImportColumn, boolean> = {
  identifier: true,
  name: true,
  model: true,
  description: false,
};

/** The file could not be turned into rows at all: 400 with the reason. */
const fileError = (message: 'import.unreadable' | 'import.empty' | 'import.tooManyRows', params = {}) =>
  new AppError('BAD_REQUEST', 400, params, { message });

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

/** Header cells accepted for a column: its key, or its label in any console language. */
const HEADER_ALIASES = new Map<string, ImportColumn>(
  THING_IMPORT_COLUMNS.flatMap((column) => [
    [column, column] as const,
    ...LANGUAGES.map((lang) => [normalizeHeader(translate(lang, `import.col.${column}`)), column] as const),
  ]),
);

/** The delimiter of a CSV file: Excel writes ';' or tabs in some locales. */
const csvDelimiter = (text: string): string => {
  const firstLine = text.slice(0, text.indexOf('\n') >>> 0);
  if (firstLine.includes(',')) return ',';
  if (firstLine.includes(';')) return ';';
  if (firstLine.includes('\t')) return '\t';
  return ',';
};

async function readWorksheet(buffer: Buffer, format: ImportFormat): Promise<ExcelJS.Worksheet> {
  const workbook = new ExcelJS.Workbook();
  try {
    if (format === 'xlsx') {
      // exceljs's typings predate Node's generic Buffer.
      await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
      const sheet = workbook.worksheets[0];
      if (!sheet) throw fileError('import.empty');
      return sheet;
    }
    const text = buffer.toString('utf8').replace(/^\uFEFF/, '');
    return await workbook.csv.read(Readable.from([text]), {
      // Keep every cell as the text it was: no numbers, dates or booleans guessed.
      map: (value: unknown) => value,
      parserOptions: { delimiter: csvDelimiter(text) },
    } as never);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw fileError('import.unreadable');
  }
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

export interface ParsedImport {
  rows: ImportRow[];
  /** Problems of the file's shape (a missing column), reported like row errors. */
  problems: ImportProblem[];
}

/**
 * The data rows of an import file: row 1 is the header (columns found by key or label, in any
 * order); blank rows are skipped; row numbers are the file's own.
 */
export async function parseImportFile(buffer: Buffer, format: ImportFormat): Promise<ParsedImport> {
  const sheet = await readWorksheet(buffer, format);
  const header = sheet.getRow(1);
  const columns = new Map<ImportColumn, number>();
  header.eachCell({ includeEmpty: false }, (_cell, index) => {
    const column = HEADER_ALIASES.get(normalizeHeader(cellText(header, index)));
    if (column && !columns.has(column)) columns.set(column, index);
  });
  const missing = THING_IMPORT_COLUMNS.filter((c) => REQUIRED[c] && !columns.has(c));
  if (missing.length > 0) {
    return {
      rows: [],
      problems: missing.map((column) => ({
        row: 1,
        column,
        message: 'import.missingColumn',
        params: { column },
      })),
    };
  }
  const rows: ImportRow[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, number) => {
    if (number === 1) return;
    const get = (column: ImportColumn) => {
      const index = columns.get(column);
      return index === undefined ? '' : cellText(row, index);
    };
    const item: ImportRow = {
      row: number,
      identifier: get('identifier'),
      name: get('name'),
      model: get('model'),
      description: get('description'),
    };
    if (item.identifier || item.name || item.model || item.description) rows.push(item);
  });
  if (rows.length === 0) throw fileError('import.empty');
  if (rows.length > IMPORT_MAX_ROWS) throw fileError('import.tooManyRows', { limit: IMPORT_MAX_ROWS });
  return { rows, problems: [] };
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

/**
 * Checks every row (required cells, lengths, identifier pattern, model, duplicates inside the
 * file and against `taken`) and returns the things to create, or every problem found.
 */
export function validateImportRows(
  rows: readonly ImportRow[],
  models: readonly ModelName[],
  taken: ReadonlySet<string>,
): {
  things: { identifier: string; name: string; description: string; modelId: number }[];
  problems: ImportProblem[];
} {
  const resolve = modelResolver(models);
  const problems: ImportProblem[] = [];
  const firstRow = new Map<string, number>();
  const things: { identifier: string; name: string; description: string; modelId: number }[] = [];
  for (const row of rows) {
    const before = problems.length;
    for (const column of THING_IMPORT_COLUMNS) {
      const value = row[column];
      if (REQUIRED[column] && value === '') {
        problems.push({ row: row.row, column, message: 'import.required' });
      } else if (value.includes('\u0000')) {
        // Same answer on both databases: PostgreSQL cannot store it, SQLite would.
        problems.push({ row: row.row, column, message: 'import.nul' });
      } else if (value.length > MAX_LENGTH[column]) {
        problems.push({
          row: row.row,
          column,
          message: 'import.tooLong',
          params: { limit: MAX_LENGTH[column] },
        });
      }
    }
    const { identifier } = row;
    if (identifier !== '' && identifier.length <= MAX_LENGTH.identifier && !identifier.includes('\u0000')) {
      if (!identifierPattern.test(identifier)) {
        problems.push({ row: row.row, column: 'identifier', message: 'import.badIdentifier' });
      } else if (firstRow.has(identifier)) {
        problems.push({
          row: row.row,
          column: 'identifier',
          message: 'import.duplicateInFile',
          params: { identifier, row: firstRow.get(identifier)! },
        });
      } else if (taken.has(identifier)) {
        problems.push({
          row: row.row,
          column: 'identifier',
          message: 'import.identifierExists',
          params: { identifier },
        });
      }
      if (!firstRow.has(identifier)) firstRow.set(identifier, row.row);
    }
    let modelId: number | undefined;
    if (row.model !== '' && row.model.length <= MAX_LENGTH.model) {
      const model = resolve(row.model);
      if (model === undefined) {
        problems.push({
          row: row.row,
          column: 'model',
          message: 'import.unknownModel',
          params: { model: row.model },
        });
      } else if ('ambiguous' in model) {
        problems.push({
          row: row.row,
          column: 'model',
          message: 'import.ambiguousModel',
          params: { model: row.model, categories: model.ambiguous.map((m) => m.categoryName).join(', ') },
        });
      } else {
        modelId = model.id;
      }
    }
    if (problems.length === before && modelId !== undefined) {
      things.push({ identifier, name: row.name, description: row.description, modelId });
    }
  }
  return { things, problems };
}

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * The import template: the header row (column keys, which every language accepts), and in the
 * xlsx a sheet explaining each column in `language` and one listing the existing models.
 */
export async function buildImportTemplate(
  format: ImportFormat,
  language: Language,
  models: readonly { category: string; model: string }[],
): Promise<{ body: Buffer; contentType: string; filename: string }> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('things');
  sheet.addRow([...THING_IMPORT_COLUMNS]);
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
  return {
    body: Buffer.from(await workbook.xlsx.writeBuffer()),
    contentType: XLSX_TYPE,
    filename: 'things-import-template.xlsx',
  };
}
