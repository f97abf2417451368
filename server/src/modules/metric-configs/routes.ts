import { metricConfigList, metricConfigSave } from '@kilowatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../plugins/route.ts';
import type { MetricConfigService } from './service.ts';

/**
 * /api/query/config. Reading is open to every logged-in user; changing a resource's metric configs
 * needs admin or a role granting the real-time monitoring route, which is where the console edits
 * them.
 */
export const metricConfigRoutes: FastifyPluginAsync<{ service: MetricConfigService }> = async (
  app,
  { service },
) => {
  route(app, metricConfigList, {}, async (request) => {
    const { resourceType, resourceId, categoryId } = request.query;
    return service.configs({ resourceType, resourceId, categoryId: categoryId ?? null });
  });

  route(app, metricConfigSave, { config: { resource: '/energy_monitor/realtime' } }, async (request) =>
    service.saveConfigs(request.body),
  );
};
