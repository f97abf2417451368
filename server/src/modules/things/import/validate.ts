import { THING_IMPORT_COLUMNS } from '@kilowatch/contract';
import { slicer } from '../../../shared/slices.ts';
import {
  ACCESS_TOKEN_PATTERN,
  type ImportColumn,
  type ImportProblem,
  type ImportRow,
  identifierPattern,
  MAX_LENGTH,
  REQUIRED,
  SLICE_MS,
} from './columns.ts';

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
