import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { SERVER_VERSION } from '../version.ts';

const SECURITY_SCHEME = 'xAuthorization';

/** OpenAPI 3 generated from the route schemas; UI at /api/docs, JSON at /api/docs/json. */
export async function openapi(app: FastifyInstance): Promise<void> {
  // Public routes need no token; saying so here keeps `config.public` the only place it is declared.
  app.addHook('onRoute', (route) => {
    if (route.config?.public && route.schema) route.schema = { ...route.schema, security: [] };
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Kilowatch API',
        version: SERVER_VERSION,
        description:
          'Successful responses wrap their payload as `{ data }` (login excepted); errors are `{ code, message }` with the message in the Accept-Language language (zh, en, es).',
      },
      components: {
        securitySchemes: {
          [SECURITY_SCHEME]: {
            type: 'apiKey',
            in: 'header',
            name: 'x-Authorization',
            description: 'The access token as `Bearer <token>`.',
          },
        },
      },
      security: [{ [SECURITY_SCHEME]: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
}
