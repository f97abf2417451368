import { DEFAULT_PAGE_SIZE } from '@kilowatch/contract';
import type { Kysely, SelectQueryBuilder, Transaction } from 'kysely';
import type { DB } from './schema.ts';

/** What a repository function runs on: the database, or the transaction its service opened. */
export type Db = Kysely<DB> | Transaction<DB>;

/** `%text%` for LIKE, with LIKE's own wildcards in `text` taken literally (used with escape '\'). */
export const containsPattern = (text: string): string => `%${text.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;

/**
 * A database refused a duplicate (unique index or primary key), on either dialect: a race between
 * two writers of the same name answers 409 instead of 500.
 */
export const isUniqueViolation = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
};

/** A row still referenced, or a reference to a missing row, on either dialect. */
export const isForeignKeyViolation = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
};

/** The page a list query asks for (the contract's defaults) and its LIMIT/OFFSET. */
export const page = (query: { page?: number | undefined; pageSize?: number | undefined }) => {
  const at = query.page ?? 1;
  const pageSize = query.pageSize ?? DEFAULT_PAGE_SIZE;
  return { page: at, pageSize, limit: pageSize, offset: (at - 1) * pageSize };
};

/**
 * One page of a list query with the count of every row it matches: `base` holds the joins, filters
 * and selection, `order` sorts the page (the count needs no order).
 */
export async function pageRows<D, TB extends keyof D, O>(
  base: SelectQueryBuilder<D, TB, O>,
  order: (query: SelectQueryBuilder<D, TB, O>) => SelectQueryBuilder<D, TB, O>,
  page: { page: number; pageSize: number },
): Promise<{ rows: O[]; total: number }> {
  // Over a generic table the selection's type cannot be worked out: it is this one column.
  const { total } = (await base
    .clearSelect()
    .select((eb) => eb.fn.countAll<number | string>().as('total'))
    .executeTakeFirstOrThrow()) as { total: number | string };
  const rows = await order(base)
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize)
    .execute();
  return { rows: rows as O[], total: Number(total) };
}
