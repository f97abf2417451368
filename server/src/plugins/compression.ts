import { constants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/**
 * Compresses JSON (and other text) answers for clients that accept it: a plant link at 200 KB/s
 * feels the difference on the query and list answers. Registered before every route so its hook
 * covers them; the console's static files arrive precompressed (plugins/web.ts) and keep their
 * own content-encoding. The live channel (/api/query/live) writes to the raw socket after
 * `reply.hijack()`, so no hook buffers its events.
 */
export async function compression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    globalCompression: true,
    // Request bodies stay as sent: the ingest routes inflate gzip themselves, with their own size
    // limits and reasons a device can read (docs/ingest.md); inflating here first broke them.
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    // Below a packet, compressing costs more than it saves.
    threshold: 1024,
    // Brotli's default (11) is for build time. On query answers (JSON of times and values) 2 is
    // twice as fast as 4 and no larger (a 23 KB chart: 0.06 vs 0.12 ms, 2.2 KB either way; 700 KB:
    // 2.9 vs 5.4 ms, 60 vs 68 KB), and faster than gzip's default.
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 2 } },
    // gzip, for clients without brotli (scripts, SCADA gateways, Node's fetch): level 1 is 4× as
    // fast as the default 6 on a 23 KB chart answer (54 vs 235 µs) for 5 % more bytes (2.09 vs
    // 1.99 KB); the same trade as brotli's quality above.
    zlibOptions: { level: constants.Z_BEST_SPEED },
    // Answers up to this size are compressed in one synchronous call (≈ 0.3–0.6 ms for a 23 KB
    // query answer) instead of through a stream on libuv's thread pool, whose hand-offs cost more
    // than the compression on 2 cores: the plugin's default there is 8 KB, and a 5-minute chart of
    // 10 series went from ≈ 5.8× to ≈ 3.8× the health floor (bench/README.md, fixed-cost-bench).
    syncThreshold: 64 * 1024,
  });
}
