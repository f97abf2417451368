import { IDENTIFIER_PATTERN, LANGUAGES, THING_IMPORT_COLUMNS } from '@kilowatch/contract';
import { AppError } from '../../../errors.ts';
import { type MessageKey, type MessageParams, translate } from '../../../i18n/index.ts';
import { slicer } from '../../../shared/slices.ts';

// The columns of a device import and the limits every file is held to.

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
export const SLICE_MS = 10;
/** Bytes handed to the CSV parser at once (a few ms of work even when every byte ends a record). */
export const CSV_SLICE_BYTES = 2048;

export const identifierPattern = new RegExp(IDENTIFIER_PATTERN);
/** Only identifiers of this form can exist, so only they are looked up (PostgreSQL refuses NUL text). */
export const isIdentifier = (text: string): boolean => identifierPattern.test(text);
/** What a device access token may look like: URL-, MQTT- and header-safe, long enough to guess hard. */
export const ACCESS_TOKEN_PATTERN = /^[A-Za-z0-9._~-]{16,128}$/;
export const MAX_LENGTH: Record<ImportColumn, number> = {
  identifier: 64,
  name: 64,
  model: 200,
  description: 500,
  region: 500,
  token: 128,
};
export const REQUIRED: Record<ImportColumn, boolean> = {
  identifier: true,
  name: true,
  model: true,
  description: false,
  region: false,
  token: false,
};

/** The file could not be turned into rows at all: 400 with the reason. */
export const fileError = (
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

export const normalizeHeader = (text: string) =>
  text
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase();

/**
 * Header cells accepted for a column: its key, its label in the import template and the label
 * the devices screen shows, in every console language.
 */
export const HEADER_ALIASES = new Map<string, ImportColumn>(
  THING_IMPORT_COLUMNS.flatMap((column) => [
    [column, column] as const,
    ...LANGUAGES.flatMap((lang) => [
      [normalizeHeader(translate(lang, `import.col.${column}`)), column] as const,
      [normalizeHeader(translate(lang, `import.alias.${column}`)), column] as const,
    ]),
  ]),
);

/** The delimiter of a CSV file: Excel writes ';' or tabs in some locales. */
export const csvDelimiter = (firstLine: string): string => {
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
