import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Data, ErrorBody, Page, Unit, UnitQuery } from '@kilowatch/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/index.ts';
import { listUnits } from './repository.ts';

const errors = { '4xx': ErrorBody, '5xx': ErrorBody };

/** GET /api/units: the measurement units abilities choose from (the console caches all of them). */
export const unitsRoutes: FastifyPluginAsyncTypebox<{ db: Kysely<DB> }> = async (app, { db }) => {
  app.get(
    '/units',
    {
      schema: {
        tags: ['things'],
        summary: 'Measurement units, paged (pageSize up to 1000); `name` matches symbol or name',
        querystring: UnitQuery,
        response: { 200: Data(Page(Unit)), ...errors },
      },
    },
    async (request) => {
      const page = request.query.page ?? 1;
      const pageSize = request.query.pageSize ?? 10;
      const result = await listUnits(db, { page, pageSize, name: request.query.name?.trim() });
      return { data: { ...result, page, pageSize } };
    },
  );
};
