import { unitList } from '@kilowatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/index.ts';
import { route } from '../../plugins/route.ts';
import { listUnits } from './repository.ts';

/** GET /api/units: the measurement units abilities choose from (the console caches all of them). */
export const unitsRoutes: FastifyPluginAsync<{ db: Kysely<DB> }> = async (app, { db }) => {
  route(app, unitList, {}, async (request) => {
    const page = request.query.page ?? 1;
    const pageSize = request.query.pageSize ?? 10;
    const result = await listUnits(db, { page, pageSize, name: request.query.name?.trim() });
    return { ...result, page, pageSize };
  });
};
