import type { Unit } from '@kilowatch/contract';
import { sql } from 'kysely';
import { containsPattern, type Db } from '../../db/sql.ts';

/** Units in their seeded order; `name` matches a substring of the symbol or the name, ignoring case. */
export async function listUnits(
  db: Db,
  query: { page: number; pageSize: number; name?: string },
): Promise<{ list: Unit[]; total: number }> {
  let base = db.selectFrom('units');
  const { name } = query;
  if (name) {
    const pattern = containsPattern(name);
    base = base.where((eb) =>
      eb.or([
        sql<boolean>`lower(symbol) like ${pattern} escape '\\'`,
        sql<boolean>`lower(name) like ${pattern} escape '\\'`,
      ]),
    );
  }
  const { total } = await base
    .select((eb) => eb.fn.countAll<number | string>().as('total'))
    .executeTakeFirstOrThrow();
  const list = await base
    .select(['id', 'symbol', 'name', 'quantity'])
    .orderBy('sort')
    .orderBy('id')
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize)
    .execute();
  return { list, total: Number(total) };
}
