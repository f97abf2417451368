import {
  sysConfigCreate,
  sysConfigDelete,
  sysConfigErpGet,
  sysConfigErpSave,
  sysConfigList,
  sysConfigLogo,
  sysConfigUpdate,
} from '@kilowatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../../plugins/route.ts';
import type { SysConfigService } from './service.ts';

const options = { config: { resource: '/sys_config' } };

/** /api/sysconfigs (/sys_config) and the public logo. */
export const sysConfigRoutes: FastifyPluginAsync<{ service: SysConfigService }> = async (
  app,
  { service },
) => {
  route(app, sysConfigLogo, { config: { public: true } }, async () => service.logo());
  route(app, sysConfigErpGet, options, async () => service.erpConfig());
  route(app, sysConfigErpSave, options, async (request) => service.saveErpConfig(request.body));
  route(app, sysConfigList, options, async (request) => service.list(request.query));
  route(app, sysConfigCreate, options, async (request) => service.create(request.body));
  route(app, sysConfigUpdate, options, async (request) => service.update(request.params.id, request.body));
  route(app, sysConfigDelete, options, async (request) => {
    await service.remove(request.params.id);
    return { ok: true as const };
  });
};
