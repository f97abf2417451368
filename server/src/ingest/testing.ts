import { createServer } from 'node:net';
import type { Api } from '../modules/things/testing.ts';

/** A TCP port free right now (the OS picks it), for brokers and servers under test. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface Plant {
  categoryId: number;
  otherCategoryId: number;
  modelId: number;
  things: { id: number; identifier: string; name: string; token: string }[];
  /** A thing of the other category (abilities P and T only). */
  pump: { id: number; identifier: string; name: string; token: string };
}

/**
 * Test plant: category 电表 with P (power, avg, kW), EP (energy counter, kWh), RUN (enum 0 停机 /
 * 1 运行), ON (boolean), FW (string); `count` meters M1…; category 水泵 with P and T and one pump.
 */
export async function seedPlant(api: Api, count = 2): Promise<Plant> {
  const ok = async (res: Promise<{ status: number; body: { data: unknown } }>) => {
    const r = await res;
    if (r.status !== 200) throw new Error(`seed failed: ${JSON.stringify(r.body)}`);
    // biome-ignore lint/suspicious/noExplicitAny: tests read whatever the body holds
    return r.body.data as any;
  };
  const category = await ok(api.post('/api/thing/categories', { name: '电表' }));
  const abilities = [
    { identifier: 'P', name: '有功功率', unit: 'kW' },
    { identifier: 'EP', name: '有功电能', unit: 'kWh', cumulative: true, aggregator: 'last' },
    {
      identifier: 'RUN',
      name: '运转状态',
      dataType: 'enum',
      aggregator: 'last',
      enumOptions: [
        { value: '0', label: '停机' },
        { value: '1', label: '运行' },
      ],
    },
    { identifier: 'ON', name: '合闸', dataType: 'boolean', aggregator: 'last' },
    { identifier: 'FW', name: '固件版本', dataType: 'string', aggregator: 'last' },
  ];
  for (const [sort, a] of abilities.entries()) {
    await ok(api.post(`/api/thing/categories/${category.id}/abilities`, { ...a, sort }));
  }
  const model = await ok(api.post('/api/thing/models', { categoryId: category.id, name: 'A型' }));
  const withToken = async (thing: { id: number; identifier: string; name: string }) => ({
    id: thing.id,
    identifier: thing.identifier,
    name: thing.name,
    token: (await ok(api.get(`/api/thing/things/${thing.id}/token`))).accessToken as string,
  });
  const things = [];
  for (let i = 1; i <= count; i++) {
    const thing = await ok(
      api.post('/api/thing/things', {
        identifier: `M${i}`,
        name: `电表${i}`,
        modelId: model.id,
        setting: { attributes: [{ identifier: 'ct', name: 'CT 变比', value: `${i}00/5` }] },
      }),
    );
    things.push(await withToken(thing));
  }
  const other = await ok(api.post('/api/thing/categories', { name: '水泵' }));
  await ok(
    api.post(`/api/thing/categories/${other.id}/abilities`, { identifier: 'P', name: '功率', unit: 'kW' }),
  );
  await ok(
    api.post(`/api/thing/categories/${other.id}/abilities`, { identifier: 'T', name: '温度', unit: '℃' }),
  );
  const pumpModel = await ok(api.post('/api/thing/models', { categoryId: other.id, name: 'B型' }));
  const pump = await withToken(
    await ok(api.post('/api/thing/things', { identifier: 'PUMP1', name: '水泵1', modelId: pumpModel.id })),
  );
  return { categoryId: category.id, otherCategoryId: other.id, modelId: model.id, things, pump };
}
