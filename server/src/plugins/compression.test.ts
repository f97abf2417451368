import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { compression } from './compression.ts';

/** An app answering `bytes` of JSON at GET /json. */
async function appAnswering(bytes: number) {
  const app = Fastify();
  await compression(app);
  const body = { text: 'x'.repeat(bytes) };
  app.get('/json', async () => body);
  return app;
}

describe('compression', () => {
  it('compresses a query-sized answer in one call, with its length known (no chunked stream)', async () => {
    const app = await appAnswering(30_000);
    const res = await app.inject({ url: '/json', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['transfer-encoding']).toBeUndefined();
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    expect(JSON.parse(brotliDecompressSync(res.rawPayload).toString()).text).toHaveLength(30_000);
    await app.close();
  });

  it('gzips at the fastest level for clients without brotli', async () => {
    const app = await appAnswering(30_000);
    const res = await app.inject({ url: '/json', headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers['content-encoding']).toBe('gzip');
    // The gzip header's XFL byte: 4 is what zlib writes for its fastest level (0 for the default 6).
    expect(res.rawPayload[8]).toBe(4);
    expect(JSON.parse(gunzipSync(res.rawPayload).toString()).text).toHaveLength(30_000);
    await app.close();
  });

  it('streams what is larger than that', async () => {
    const app = await appAnswering(200_000);
    const res = await app.inject({ url: '/json', headers: { 'accept-encoding': 'br' } });
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-length']).toBeUndefined();
    expect(JSON.parse(brotliDecompressSync(res.rawPayload).toString()).text).toHaveLength(200_000);
    await app.close();
  });

  it('leaves an answer under a packet as it is', async () => {
    const app = await appAnswering(100);
    const res = await app.inject({ url: '/json', headers: { 'accept-encoding': 'br' } });
    expect(res.headers['content-encoding']).toBeUndefined();
    await app.close();
  });
});
