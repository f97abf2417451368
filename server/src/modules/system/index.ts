import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/index.ts';
import { groupRoutes } from './groups/routes.ts';
import { createGroupService } from './groups/service.ts';
import { roleRoutes } from './roles/routes.ts';
import { createRoleService } from './roles/service.ts';
import { sysConfigRoutes } from './sysconfigs/routes.ts';
import { createSysConfigService } from './sysconfigs/service.ts';
import { userRoutes } from './users/routes.ts';
import { createUserAdminService } from './users/service.ts';
import { videoRoutes } from './videos/routes.ts';
import { createVideoService } from './videos/service.ts';

export { bootstrapSystem, resourceSeeds } from './bootstrap.ts';
export { parseLogo } from './sysconfigs/logo.ts';
export { createUserAdminService } from './users/service.ts';

/**
 * System management (spec §2 admin routes): /api/users, /api/groups, /api/roles,
 * /api/resources, /api/sysconfigs (and the public logo), /api/videos.
 */
export const systemRoutes: FastifyPluginAsyncTypebox<{ db: Kysely<DB>; now: () => number }> = async (
  app,
  { db, now },
) => {
  await app.register(userRoutes, { service: createUserAdminService(db, now) });
  await app.register(groupRoutes, { service: createGroupService(db, now) });
  await app.register(roleRoutes, { service: createRoleService(db, now) });
  await app.register(sysConfigRoutes, { service: createSysConfigService(db, now) });
  await app.register(videoRoutes, { service: createVideoService(db, now) });
};
