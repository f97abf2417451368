import { healthLive, healthReady, opsBackup } from '@kilowatch/contract';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import { route } from '../../plugins/route.ts';
import { SERVER_VERSION } from '../../version.ts';
import { type BackupDeps, backupDataFolder } from './backup.ts';
import { checkOpsAccess } from './guard.ts';
import type { Metrics } from './metrics.ts';
import type { Readiness } from './readiness.ts';

/**
 * /api/health/live and /api/health/ready (public: load balancers and orchestrators probe them),
 * and POST /api/ops/backup (OPS_TOKEN or this machine only, checked by `checkOpsAccess`).
 */
export const opsRoutes: FastifyPluginAsync<{
  readiness: Readiness;
  backup: BackupDeps;
  opsToken: string | undefined;
}> = async (app, { readiness, backup, opsToken }) => {
  route(app, healthLive, { config: { public: true } }, async () => ({
    status: 'ok' as const,
    version: SERVER_VERSION,
  }));
  route(app, healthReady, { config: { public: true } }, async (_request, reply) => {
    const answer = await readiness.check();
    return reply.status(answer.status === 'ready' ? 200 : 503).send(answer);
  });
  route(app, opsBackup, { config: { public: true } }, async (request) => {
    checkOpsAccess(request, opsToken);
    request.log.info({ dir: request.body.dir }, 'backup started');
    const result = await backupDataFolder(backup, request.body.dir);
    request.log.info({ dir: result.dir, tookMs: result.tookMs, files: result.files }, 'backup written');
    return result;
  });
};

const MetricsText = Type.String();

/**
 * GET /metrics at the server's root, where Prometheus looks by default; outside `contract/` like
 * InfluxDB's /ping, because the contract's endpoints live under /api and answer JSON.
 */
export const metricsRoutes: FastifyPluginAsync<{ metrics: Metrics; opsToken: string | undefined }> = async (
  app,
  { metrics, opsToken },
) => {
  app.get(
    '/metrics',
    {
      schema: {
        tags: ['system'],
        summary: 'Prometheus metrics (text format 0.0.4); OPS_TOKEN as bearer, or from this machine only',
        produces: ['text/plain'],
        response: { 200: MetricsText },
      },
    },
    async (request, reply) => {
      checkOpsAccess(request, opsToken);
      const { text, contentType } = await metrics.scrape();
      return reply.type(contentType).send(text);
    },
  );
};

/**
 * Times every request into `metrics` by its route template (a 404 counts as `unmatched`). Live
 * streams are left out: their duration is how long a screen stayed open, not a latency.
 * Call it on the root instance before routes are registered, so every route has the hook.
 */
export function observeRequests(app: FastifyInstance, metrics: Pick<Metrics, 'request'>): void {
  app.addHook('onResponse', async (request, reply) => {
    if (String(reply.getHeader('content-type') ?? '').startsWith('text/event-stream')) return;
    metrics.request(
      request.routeOptions.url ?? 'unmatched',
      request.method,
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
  });
}
