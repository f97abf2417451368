import type { FastifyRequest } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, createUser, dialects, login, type TestApp } from '../../test/helpers.ts';
import { deviceConnection } from './connection.ts';
import { freePort } from './testing.ts';

const get = async (t: TestApp, token: string, host: string) => {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/telemetry/connection',
    headers: { ...bearer(token), host },
  });
  return { status: res.statusCode, body: res.json() };
};

describe.each(dialects())('GET /api/telemetry/connection on %s', (dialect) => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('gives the broker on the host the browser reached, its port and the topics', async () => {
    const port = await freePort();
    t = await buildTestApp(dialect, { env: { MQTT_PORT: String(port) } });
    const { token } = await login(t.app);
    const res = await get(t, token, 'plant.example:8080');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      data: {
        mqtt: {
          mode: 'broker',
          host: 'plant.example',
          port,
          protocol: 'mqtt',
          ownTopic: 'v1/devices/me/telemetry',
          thingTopic: 'kilowatch/things/{identifier}/telemetry',
        },
        http: {
          baseUrl: 'http://plant.example:8080',
          telemetryPath: '/api/telemetry',
          lineProtocolPath: '/api/v2/write',
          thingsboardPath: '/api/v1/{token}/telemetry',
          lineProtocolV1Path: '/write',
        },
      },
    });
    // Only the users who may see device tokens: admins and the nodes grant.
    await createUser(t.app, { username: 'viewer', password: 'Viewer12', userLevel: 2 });
    const viewer = await login(t.app, 'viewer', 'Viewer12');
    expect((await get(t, viewer.token, 'plant.example:8080')).status).toBe(403);
  });

  it('names the listening address when the server listens on one, and no broker when MQTT is off', async () => {
    const port = await freePort();
    t = await buildTestApp(dialect, { env: { MQTT_PORT: String(port), HOST: '127.0.0.1' } });
    const { token } = await login(t.app);
    expect((await get(t, token, 'localhost:9000')).body.data.mqtt).toMatchObject({ host: '127.0.0.1', port });
    await t.close();

    t = await buildTestApp(dialect);
    const admin = await login(t.app);
    const off = await get(t, admin.token, '[::1]:8080');
    expect(off.body.data.mqtt).toEqual({
      mode: 'off',
      host: null,
      port: null,
      protocol: 'mqtt',
      ownTopic: null,
      thingTopic: 'kilowatch/things/{identifier}/telemetry',
    });
    expect(off.body.data.http.baseUrl).toBe('http://[::1]:8080');
  });
});

describe('deviceConnection with an external broker', () => {
  const request = {
    hostname: 'console.example',
    host: 'console.example',
    protocol: 'https',
  } as FastifyRequest;
  const status = () => ({ mode: 'subscriber' as const, port: null, connected: true, clients: 0 });

  it("names the broker's host and port, never its credentials, and only the thing topic", () => {
    const answer = deviceConnection(request, {
      listenHost: '0.0.0.0',
      mqttUrl: 'mqtts://kilowatch:secret@[fd00::1]',
      mqtt: { status },
    });
    expect(answer).toEqual({
      mqtt: {
        mode: 'external',
        host: 'fd00::1',
        port: 8883,
        protocol: 'mqtts',
        ownTopic: null,
        thingTopic: 'kilowatch/things/{identifier}/telemetry',
      },
      http: {
        baseUrl: 'https://console.example',
        telemetryPath: '/api/telemetry',
        lineProtocolPath: '/api/v2/write',
        thingsboardPath: '/api/v1/{token}/telemetry',
        lineProtocolV1Path: '/write',
      },
    });
    expect(JSON.stringify(answer)).not.toContain('secret');
    expect(
      deviceConnection(request, {
        listenHost: '0.0.0.0',
        mqttUrl: 'tcp://emqx.plant:11883',
        mqtt: { status },
      }).mqtt,
    ).toMatchObject({ host: 'emqx.plant', port: 11883, protocol: 'mqtt' });
  });
});
