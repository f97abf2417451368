import { health } from '@kilowatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import { type Database, ping } from '../../db/index.ts';
import { route } from '../../plugins/route.ts';
import { SERVER_VERSION } from '../../version.ts';

/** GET /api/health: answers only when the database does. */
export const healthRoutes: FastifyPluginAsync<{ database: Database }> = async (app, { database }) => {
  route(app, health, { config: { public: true } }, async () => {
    await ping(database.db);
    return { status: 'ok' as const, db: database.dialect, version: SERVER_VERSION };
  });
};
