import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { ensureAdmin, type FirstStartAdmin } from './bootstrap/admin.ts';
import type { Config } from './config.ts';
import { type Database, migrateToLatest, openDatabase } from './db/index.ts';
import {
  authRoutes,
  createAuthService,
  createLoginThrottle,
  createTokens,
  deriveLoginKey,
} from './modules/auth/index.ts';
import { healthRoutes } from './modules/health/index.ts';
import { authenticate } from './plugins/authenticate.ts';
import { errorHandler } from './plugins/error-handler.ts';
import { openapi } from './plugins/openapi.ts';
import { securityHeaders } from './plugins/security-headers.ts';
import { web } from './plugins/web.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Database;
    /** Set when this start created the admin account; server.ts tells the operator once. */
    firstStartAdmin: FirstStartAdmin | undefined;
  }
}

export interface AppOptions {
  /** Milliseconds since the epoch. Tests move it to expire tokens and throttle windows. */
  now?: () => number;
}

/** Access tokens may arrive as ?token= (spec §7); they must not end up in the logs. */
const redactUrl = (url: string): string => url.replace(/([?&]token=)[^&]*/gi, '$1[redacted]');

/**
 * The whole server, ready to listen or to be driven with `inject`: migrations run, the first
 * admin exists, plugins then modules are registered. Closing it closes the database.
 */
export async function buildApp(config: Config, options: AppOptions = {}): Promise<FastifyInstance> {
  const now = options.now ?? Date.now;
  const database = openDatabase(config.database);
  let firstStartAdmin: FirstStartAdmin | undefined;
  try {
    await migrateToLatest(database.db, database.dialect);
    firstStartAdmin = await ensureAdmin(database.db, config.adminPassword, new Date(now()));
  } catch (error) {
    await database.close();
    throw error;
  }

  const app = Fastify({
    trustProxy: config.trustProxy,
    logger: {
      level: config.logLevel,
      // Fastify does not log bodies, but a future debug line must not leak a password either.
      redact: ['req.body.password', 'body.password', 'password'],
      serializers: {
        req: (request: FastifyRequest) => ({
          method: request.method,
          url: redactUrl(request.url),
          remoteAddress: request.ip,
        }),
      },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.decorate('db', database);
  app.decorate('firstStartAdmin', firstStartAdmin);
  app.addHook('onClose', () => database.close());

  try {
    securityHeaders(app);
    errorHandler(app);
    await openapi(app);

    const tokens = createTokens({
      secret: config.jwtSecret,
      accessTtl: config.accessTokenTtl,
      refreshTtl: config.refreshTokenTtl,
      now,
    });
    const auth = createAuthService({
      db: database.db,
      tokens,
      throttle: createLoginThrottle({ now }),
      loginKey: deriveLoginKey(config.jwtSecret),
      now,
    });

    await app.register(
      async (api) => {
        authenticate(api, auth);
        await api.register(healthRoutes, { database });
        await api.register(authRoutes, { prefix: '/auth', service: auth });
      },
      { prefix: '/api' },
    );
    await web(app, config.webDist);
    await app.ready();
  } catch (error) {
    await app.close();
    throw error;
  }
  return app;
}
