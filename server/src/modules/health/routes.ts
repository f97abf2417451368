import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Data, ErrorBody, Health } from '@kilowatch/contract';
import { type Database, ping } from '../../db/index.ts';
import { SERVER_VERSION } from '../../version.ts';

/** GET /api/health: answers only when the database does. */
export const healthRoutes: FastifyPluginAsyncTypebox<{ database: Database }> = async (app, { database }) => {
  app.get(
    '/health',
    {
      config: { public: true },
      schema: {
        tags: ['system'],
        summary: 'Liveness and database check',
        response: { 200: Data(Health), '5xx': ErrorBody },
      },
    },
    async () => {
      await ping(database.db);
      return { data: { status: 'ok' as const, db: database.dialect, version: SERVER_VERSION } };
    },
  );
};
