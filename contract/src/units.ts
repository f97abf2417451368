import { type Static, Type } from 'typebox';
import { Page } from './common.ts';
import { endpoint } from './endpoint.ts';
import { NameSearchQuery } from './thing-categories.ts';

/** Measurement units abilities choose from (spec §9 unit cache). */
export const Unit = Type.Object({
  id: Type.Integer(),
  symbol: Type.String(),
  name: Type.String(),
  quantity: Type.String({ description: 'what it measures, e.g. power, energy' }),
});
export type Unit = Static<typeof Unit>;

/** GET /api/units: the console's unit cache asks for pageSize 1000 (spec §9); name matches symbol or name. */
export const UnitQuery = NameSearchQuery;

// ---- endpoints ----------------------------------------------------------------------------------

export const unitList = endpoint({
  method: 'GET',
  path: '/api/units',
  querystring: UnitQuery,
  response: Page(Unit),
  tags: ['things'],
  summary: 'Measurement units, paged (pageSize up to 1000); `name` matches symbol or name',
});
