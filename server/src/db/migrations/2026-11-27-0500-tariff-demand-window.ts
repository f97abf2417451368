import type { Kysely } from 'kysely';

// Frozen in time: this file must keep producing the same data even as the app's types move on.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema types
export async function up(db: Kysely<any>): Promise<void> {
  // A demand charge now says how its maximum is windowed (docs/tariffs.md "Maximum demand"). Every
  // stored one was billed on the clock's quarter hours: it is written down as `fixed`, so a stored
  // version reads the same whatever the default of a later release.
  const rows: { id: number; body: string }[] = await db
    .selectFrom('tariff_versions')
    .select(['id', 'body'])
    .execute();
  for (const row of rows) {
    const body = JSON.parse(row.body);
    if (body?.demand?.kind !== 'demand' || body.demand.window !== undefined) continue;
    body.demand = { ...body.demand, window: 'fixed' };
    await db
      .updateTable('tariff_versions')
      .set({ body: JSON.stringify(body) })
      .where('id', '=', row.id)
      .execute();
  }
}

// biome-ignore lint/suspicious/noExplicitAny: as above
export async function down(db: Kysely<any>): Promise<void> {
  const rows: { id: number; body: string }[] = await db
    .selectFrom('tariff_versions')
    .select(['id', 'body'])
    .execute();
  for (const row of rows) {
    const body = JSON.parse(row.body);
    if (body?.demand?.kind !== 'demand' || body.demand.window === undefined) continue;
    const { window: _window, ...demand } = body.demand;
    body.demand = demand;
    await db
      .updateTable('tariff_versions')
      .set({ body: JSON.stringify(body) })
      .where('id', '=', row.id)
      .execute();
  }
}
