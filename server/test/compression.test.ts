import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, login, type TestApp } from './helpers.ts';

// Issue 9: the console's files and the JSON answers went out uncompressed.
describe('compression', () => {
  let t: TestApp;
  let webDist: string;
  const script = `console.log(${JSON.stringify('kilowatch '.repeat(400))});`;

  beforeEach(async () => {
    webDist = mkdtempSync(join(tmpdir(), 'kilowatch-web-'));
    mkdirSync(join(webDist, 'assets'));
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Kilowatch</title>');
    writeFileSync(join(webDist, 'assets', 'index-3f9a1c2b.js'), script);
    writeFileSync(join(webDist, 'assets', 'index-3f9a1c2b.js.br'), brotliCompressSync(script));
    writeFileSync(join(webDist, 'assets', 'index-3f9a1c2b.js.gz'), gzipSync(script));
    t = await buildTestApp('sqlite', { env: { WEB_DIST: webDist } });
  });
  afterEach(async () => {
    await t.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it('sends the build’s precompressed asset that the browser accepts, cached for good', async () => {
    const url = '/assets/index-3f9a1c2b.js';
    const br = await t.app.inject({
      method: 'GET',
      url,
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(String(br.headers.vary).toLowerCase()).toContain('accept-encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);

    const gz = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);

    const plain = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('compresses JSON answers for clients that accept it', async () => {
    const { token } = await login(t.app);
    const headers = { authorization: `Bearer ${token}` };
    const url = '/api/docs/json';
    const plain = await t.app.inject({ method: 'GET', url, headers });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await t.app.inject({
      method: 'GET',
      url,
      headers: { ...headers, 'accept-encoding': 'br, gzip' },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
  });

  it('keeps the live channel (SSE) uncompressed, so events arrive as they are written', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { token } = await login(t.app);
    const ticket = await t.app.inject({
      method: 'POST',
      url: '/api/query/live/ticket',
      headers: { 'x-authorization': `Bearer ${token}` },
    });
    const first = await new Promise<{ encoding: string | undefined; chunk: string }>((resolve, reject) => {
      const request = get(
        `${address}/api/query/live?thingIds=999&ticket=${ticket.json().data.ticket}`,
        { headers: { 'accept-encoding': 'br, gzip' } },
        (res) => {
          res.once('data', (chunk: Buffer) => {
            resolve({ encoding: res.headers['content-encoding'], chunk: chunk.toString() });
            request.destroy();
          });
        },
      );
      request.on('error', reject);
    });
    expect(first.encoding).toBeUndefined();
    expect(first.chunk).toContain('retry: 5000');
  });
});
