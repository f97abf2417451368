import type { Readable } from 'node:stream';
import type { ImportResult } from '@kilowatch/contract';
import { AppError } from '../../../errors.ts';
import {
  ACCESS_TOKEN_PATTERN,
  type ImportFormat,
  type ImportProblem,
  inTurns,
  isIdentifier,
  parseImportUpload,
  validateImportRows,
} from '../import/index.ts';
import * as repo from '../repository/index.ts';
import { newAccessToken, type ServiceContext } from './context.ts';

/** An import refused as a whole: the rows at fault, nothing written. Answered 422 by the route. */
export class ImportRejected extends Error {
  override name = 'ImportRejected';
  constructor(readonly problems: ImportProblem[]) {
    super('import rejected');
  }
}

/** The device import: its template's lists and the import itself. */
export function importService(ctx: ServiceContext) {
  const { db, isoNow, write } = ctx;
  return {
    /** Model names as the import template lists them ("Category/Model"). */
    async modelNames(): Promise<{ category: string; model: string }[]> {
      return (await repo.allModelNames(db)).map((m) => ({ category: m.categoryName, model: m.name }));
    },

    /** Region paths from the top ("一车间/一号线"), as the import template lists them. */
    async regionPaths(): Promise<string[]> {
      const nodes = await repo.regionNodes(db);
      const byId = new Map(nodes.map((n) => [n.id, n]));
      const pathOf = (id: number, depth = 0): string => {
        const node = byId.get(id)!;
        const parent = node.parentId === null ? undefined : byId.get(node.parentId);
        return parent && depth < nodes.length ? `${pathOf(parent.id, depth + 1)}/${node.name}` : node.name;
      };
      return nodes.map((n) => pathOf(n.id));
    },

    /**
     * Creates the things of an import after reading the file as it arrives and checking every
     * row: all rows are written (and bound to their regions) in one transaction, or none and
     * ImportRejected lists every row at fault. The rows are checked and their values made before
     * the transaction, which then only writes: on SQLite it holds the one connection every other
     * request (health, login, ingest) waits for. A thing created meanwhile with a checked
     * identifier or token fails the write on the unique index (409), nothing written.
     */
    async importThings(file: Readable, format: ImportFormat): Promise<ImportResult> {
      const { rows, headers, problems: shape } = await parseImportUpload(file, format);
      if (shape.length > 0) throw new ImportRejected(shape);
      const known = {
        models: await repo.allModelNames(db),
        regions: await repo.regionNodes(db),
        identifiers: await repo.existingIdentifiers(db, rows.map((r) => r.identifier).filter(isIdentifier)),
        tokens: await repo.existingAccessTokens(
          db,
          // Only well-formed tokens can exist, so only they are looked up (PostgreSQL refuses NUL text).
          rows.flatMap((r) => (ACCESS_TOKEN_PATTERN.test(r.token) ? [r.token] : [])),
        ),
      };
      const { things, problems } = await validateImportRows(rows, headers, known);
      if (problems.length > 0) throw new ImportRejected(problems);
      const values = await inTurns(things, (t) => ({
        identifier: t.identifier,
        name: t.name,
        description: t.description,
        modelId: t.modelId,
        attributes: [],
        accessToken: t.accessToken ?? newAccessToken(),
      }));
      return write(
        async (trx) => {
          const stamp = isoNow();
          const ids = await repo.insertThings(trx, values, stamp);
          await repo.bindToRegions(
            trx,
            things.flatMap((t, i) =>
              t.regionId === null ? [] : [{ thingId: ids[i]!, regionId: t.regionId }],
            ),
            stamp,
          );
          return { created: things.length };
        },
        () => new AppError('CONFLICT', 409),
      );
    },
  };
}
