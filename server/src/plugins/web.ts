import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

const MISSING_BUILD = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Kilowatch</title></head>
<body style="font-family: sans-serif; margin: 3rem">
<h1>Kilowatch</h1>
<p>The console has not been built yet. Run <code>npm run build</code> and restart the server.</p>
<p>The API is up: see <a href="/api/docs">/api/docs</a>.</p>
</body></html>`;

/** Vite puts content-hashed files under assets/, so they can be cached for good. */
const isHashedAsset = (path: string): boolean => path.includes(`${sep}assets${sep}`);

/** Serves the built console from `webDist` at `/` (hash routing, so no fallback beyond `/`). */
export async function web(app: FastifyInstance, webDist: string): Promise<void> {
  if (!existsSync(join(webDist, 'index.html'))) {
    app.get('/', { schema: { hide: true } }, async (_request, reply) =>
      reply.type('text/html').send(MISSING_BUILD),
    );
    return;
  }
  await app.register(fastifyStatic, {
    root: webDist,
    // The build writes name.br and name.gz beside each asset (web/precompress.ts): sent as they
    // are to clients that accept them, never compressed per request.
    preCompressed: true,
    cacheControl: false,
    setHeaders(reply, path) {
      reply.header('cache-control', isHashedAsset(path) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
}
