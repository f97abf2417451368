import { type DemoHistoryStatus, demoHistory, health } from '@kilowatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import { type Database, ping } from '../../db/index.ts';
import { route } from '../../plugins/route.ts';
import { SERVER_VERSION } from '../../version.ts';

/**
 * GET /api/health: answers only when the database does. GET /api/demo/history: how far the demo
 * plant's background history is (any logged-in user: the console shows it as a banner).
 */
export const healthRoutes: FastifyPluginAsync<{
  database: Database;
  demoHistory: () => DemoHistoryStatus;
}> = async (app, { database, demoHistory: history }) => {
  route(app, demoHistory, {}, async () => history());
  route(app, health, { config: { public: true } }, async () => {
    await ping(database.db);
    return { status: 'ok' as const, db: database.dialect, version: SERVER_VERSION };
  });
};
