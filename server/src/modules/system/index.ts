import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/index.ts';
import { groupRoutes } from './groups/routes.ts';
import { createGroupService } from './groups/service.ts';
import { roleRoutes } from './roles/routes.ts';
import { createRoleService } from './roles/service.ts';
import { sysConfigRoutes } from './sysconfigs/routes.ts';
import { createSysConfigService, type SysConfigDeps } from './sysconfigs/service.ts';
import { videoRoutes } from './videos/routes.ts';
import { createVideoService } from './videos/service.ts';

export { bootstrapSystem } from './bootstrap.ts';
export { existingGroupIds } from './groups/repository.ts';
export { existingRoleIds } from './roles/repository.ts';

/** The services of system management, built once by services.ts. */
export function createSystemServices({
  db,
  now,
  ...deps
}: { db: Kysely<DB>; now: () => number } & SysConfigDeps) {
  return {
    groups: createGroupService(db, now),
    roles: createRoleService(db, now),
    sysConfigs: createSysConfigService(db, now, deps),
    videos: createVideoService(db, now),
  };
}

export type SystemServices = ReturnType<typeof createSystemServices>;

/**
 * System management (spec §2 admin routes): /api/groups, /api/roles,
 * /api/resources, /api/sysconfigs (and the public logo), /api/videos.
 */
export const systemRoutes: FastifyPluginAsyncTypebox<{ services: SystemServices }> = async (
  app,
  { services },
) => {
  await app.register(groupRoutes, { service: services.groups });
  await app.register(roleRoutes, { service: services.roles });
  await app.register(sysConfigRoutes, { service: services.sysConfigs });
  await app.register(videoRoutes, { service: services.videos });
};
