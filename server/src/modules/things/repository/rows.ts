import { sql } from 'kysely';

import { containsPattern } from '../../../db/sql.ts';

// What every table of the device model shares: paging and text matching.

export interface PageArgs {
  page: number;
  pageSize: number;
}

export interface Rows<T> {
  list: T[];
  total: number;
}

export const offset = ({ page, pageSize }: PageArgs) => (page - 1) * pageSize;

/** lower(column) LIKE lower('%text%') ESCAPE '\': the same on SQLite and PostgreSQL. */
export const nameContains = (column: string, text: string) =>
  sql<boolean>`lower(${sql.ref(column)}) like ${containsPattern(text)} escape '\\'`;

export const parseJson = <T>(text: string, fallback: T): T => {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};
