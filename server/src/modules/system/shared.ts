import { DEFAULT_PAGE_SIZE } from '@kilowatch/contract';

/** LIMIT/OFFSET of a page query, with the contract's defaults. */
export const paging = (query: { page?: number; pageSize?: number }) => {
  const page = query.page ?? 1;
  const pageSize = query.pageSize ?? DEFAULT_PAGE_SIZE;
  return { page, pageSize, limit: pageSize, offset: (page - 1) * pageSize };
};

/**
 * Whether a database error is a unique-constraint violation (SQLite or PostgreSQL), so a race
 * between two writers of the same name answers 409 instead of 500.
 */
export const isUniqueViolation = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
};
