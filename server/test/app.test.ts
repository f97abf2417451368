import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SERVER_VERSION } from '../src/version.ts';
import { buildTestApp, dialects, type TestApp } from './helpers.ts';

describe.each(dialects())('app on %s', (dialect) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await buildTestApp(dialect);
  });
  afterEach(async () => {
    await t.close();
  });

  it('reports health without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { status: 'ok', db: dialect, version: SERVER_VERSION } });
  });

  it('answers unknown /api routes with a JSON 404', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/no-such-thing',
      headers: { 'accept-language': 'en' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'NOT_FOUND', message: 'The requested resource does not exist' });
    expect((await t.app.inject({ method: 'DELETE', url: '/api/auth/login' })).statusCode).toBe(404);
  });

  it('answers malformed and empty JSON with 400, never 500', async () => {
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"username": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ code: 'BAD_REQUEST', message: '请求体不是有效的 JSON' });
    const empty = await t.app.inject({
      method: 'POST',
      url: '/api/auth/token',
      headers: { 'content-type': 'application/json' },
    });
    expect(empty.statusCode).toBe(400);
    const wrongType = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'accept-language': 'en' },
      payload: { username: { a: 1 }, password: 'x' },
    });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json()).toEqual({ code: 'VALIDATION', message: 'username must be a string' });
    const tooLong = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'accept-language': 'es' },
      payload: { username: 'a'.repeat(600), password: 'x' },
    });
    expect(tooLong.json().message).toBe('El campo username debe tener como máximo 512 caracteres');
  });

  it('answers the unexpected with a generic 500 INTERNAL', async () => {
    await t.app.db.close();
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'accept-language': 'en' },
    });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      code: 'INTERNAL',
      message: 'System error, please contact the administrator',
    });
  });

  it('sets the security headers on every response', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'SAMEORIGIN',
      'referrer-policy': 'strict-origin-when-cross-origin',
    });
  });

  it('publishes the OpenAPI document with the auth paths and the x-Authorization scheme', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/auth/login-key',
        '/api/auth/login',
        '/api/auth/me',
        '/api/auth/token',
        '/api/auth/logout',
        '/api/health',
      ]),
    );
    expect(doc.components.securitySchemes.xAuthorization).toMatchObject({
      in: 'header',
      name: 'x-Authorization',
    });
    expect(doc.paths['/api/auth/login'].post.security).toEqual([]);
    expect(doc.paths['/api/auth/me'].get.security).toBeUndefined();
    expect((await t.app.inject({ method: 'GET', url: '/api/docs' })).statusCode).toBeLessThan(400);
  });

  it('says how to build the console when the build is missing', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('npm run build');
  });
});

describe('serving the built console', () => {
  let t: TestApp;
  let webDist: string;
  beforeEach(() => {
    webDist = mkdtempSync(join(tmpdir(), 'kilowatch-web-'));
  });
  afterEach(async () => {
    await t.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it('serves index.html uncached and hashed assets as immutable', async () => {
    mkdirSync(join(webDist, 'assets'), { recursive: true });
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Kilowatch</title>');
    writeFileSync(join(webDist, 'assets', 'index-3f9a1c2b.js'), 'console.log(1)');
    t = await buildTestApp('sqlite', { env: { WEB_DIST: webDist } });

    const index = await t.app.inject({ method: 'GET', url: '/' });
    expect(index.statusCode).toBe(200);
    expect(index.body).toContain('<title>Kilowatch</title>');
    expect(index.headers['cache-control']).toBe('no-cache');
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-3f9a1c2b.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const missing = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('NOT_FOUND');
  });
});
