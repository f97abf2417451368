import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers.ts';
import { PlantGenerator } from '../simulator/generator.ts';
import { startPublisher } from '../simulator/publisher.ts';
import { type DemoServices, startAppDemo } from './index.ts';
import { loadPlant, seedPlant } from './seed.ts';

/** A port nobody listens on right now. */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });

async function until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('live publisher over MQTT to the app broker', () => {
  let t: TestApp;
  let port: number;
  let services: DemoServices;
  beforeAll(async () => {
    port = await freePort();
    t = await buildTestApp('sqlite', { env: { MQTT_PORT: String(port), HOST: '127.0.0.1' } });
    const { things, regions, metricConfigs } = t.app.services;
    services = {
      things,
      regions,
      saveConfigs: (patch) => metricConfigs.saveConfigs(patch),
      alarms: t.app.services.alarms,
      diagrams: t.app.services.diagrams,
      dashboard: t.app.services.dashboard,
    };
    await seedPlant(services, { things: 50 });
  });
  afterAll(() => t?.close());

  it('publishes valid payloads per thing with its token, QoS 1, and stops cleanly', async () => {
    const things = await loadPlant(services.things, { limit: 12 });
    const generator = new PlantGenerator({ timeZone: t.config.telemetry.timeZone });
    const publisher = startPublisher({
      things,
      generator,
      url: `mqtt://127.0.0.1:${port}`,
      intervalMs: 3_600_000, // the test ticks by hand
      now: t.clock.now,
    });
    try {
      await until(() => publisher.connected() === things.length, 'all clients to connect');
      expect(t.app.ingest.mqtt.status().clients).toBe(things.length);

      const ts = Math.floor(t.clock.now() / 10_000) * 10_000;
      for (const at of [ts, ts + 10_000]) {
        publisher.tick(at);
        await until(
          () => publisher.stats.acknowledged + publisher.stats.failed === publisher.stats.published,
          'PUBACKs',
        );
      }
      expect(publisher.stats.failed).toBe(0);
      expect(publisher.stats.published).toBeGreaterThanOrEqual(2 * things.length - 2);

      // What arrived is exactly what the generator says, for every metric of every thing.
      const model = (i: number) => generator.model(things[i]!);
      let compared = 0;
      for (const [i, thing] of things.entries()) {
        const values = generator.values(model(i), ts + 10_000);
        if (!values) continue; // silent at that tick
        const latest = t.app.telemetry.latest(
          Object.keys(values).map((metric) => ({ thingId: thing.id, metric })),
        );
        expect(latest).toHaveLength(Object.keys(values).length);
        for (const point of latest) {
          expect(point.ts).toBe(ts + 10_000);
          expect(point.value).toBe(values[point.metric]);
          compared++;
        }
      }
      expect(compared).toBeGreaterThan(50);
      // Live values move between ticks.
      const meter = things.find((x) => x.kind === 'meter')!;
      const [p0, p1] = [ts, ts + 10_000].map((at) => generator.values(generator.model(meter), at)?.P);
      expect(p0).not.toBe(p1);
    } finally {
      await publisher.stop();
    }
    await until(() => t.app.ingest.mqtt.status().clients === 0, 'clients to disconnect');
  });

  it('starts from server.ts with the app and config: seeds (once) and connects every thing', async () => {
    const simulator = await startAppDemo(
      t.app,
      { ...t.config, simulator: { enabled: true, things: 60, historyDays: 31, historyStepMs: 60_000 } },
      services,
    );
    expect(simulator).toBeDefined();
    try {
      expect(simulator!.seeded).toBe(false); // the plant of the first test stays as it is
      expect(simulator!.things).toHaveLength(50);
      await until(() => simulator!.connected() === 50, 'the plant to connect');
    } finally {
      await simulator!.stop();
    }
    expect(simulator!.connected()).toBe(0);
  });
});
