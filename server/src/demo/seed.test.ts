import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, dialects, login, type TestApp } from '../../test/helpers.ts';
import { CATEGORIES, METRICS, ROOT_REGION } from '../simulator/index.ts';
import { DEMO_RULES } from './alarm-rules.ts';
import { type DemoServices, HOME_CONFIGS, loadPlant, seedPlant } from './seed.ts';

describe.each(dialects())('seeding the demo plant (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(dialect);
  });
  afterAll(() => t?.close());

  it('creates categories, models, regions and bound things once', async () => {
    const { things: thingsService, regions, metricConfigs, alarms, diagrams, dashboard } = t.app.services;
    const services: DemoServices = {
      things: thingsService,
      regions,
      saveConfigs: (patch) => metricConfigs.saveConfigs(patch),
      alarms,
      diagrams,
      dashboard,
    };
    const first = await seedPlant(services, { things: 50 });
    expect(first).toMatchObject({ seeded: true, things: 50 });
    const again = await seedPlant(services, { things: 80 });
    expect(again.seeded).toBe(false);

    const things = await loadPlant(thingsService);
    expect(things).toHaveLength(50);
    expect(new Set(things.map((x) => x.accessToken)).size).toBe(50);
    expect(things.every((x) => x.accessToken.length > 20 && x.rated > 0)).toBe(true);
    expect(await loadPlant(thingsService, { limit: 5 })).toHaveLength(5);

    const { token } = await login(t.app);
    const get = async (url: string) => {
      const res = await t.app.inject({ method: 'GET', url, headers: bearer(token) });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data;
    };
    const categories = (await get('/api/thing/categories?pageSize=100')).list as {
      name: string;
      id: number;
    }[];
    expect(categories.map((c) => c.name).sort()).toEqual(CATEGORIES.map((c) => c.name).sort());
    const compressor = categories.find((c) => c.name === '空压机')!;
    const abilities = (await get(`/api/thing/categories/${compressor.id}/abilities`)) as {
      identifier: string;
      name: string;
      cumulative: boolean;
      enumOptions: unknown[];
    }[];
    expect(abilities.map((a) => a.name)).toEqual(
      expect.arrayContaining(['运转状态', '运行时长', '启动次数', '停机时长']),
    );
    expect(abilities.find((a) => a.identifier === 'status')?.enumOptions).toHaveLength(2);
    expect(abilities.find((a) => a.identifier === 'runHours')?.cumulative).toBe(true);

    const tree = (await get('/api/regions')) as { id: number; name: string; children: { name: string }[] }[];
    const root = tree.find((r) => r.name === ROOT_REGION)!;
    expect(root.children.map((c) => c.name)).toEqual(['一号车间', '二号车间', '动力站', '办公楼']);
    expect(tree.filter((r) => r.name === ROOT_REGION)).toHaveLength(1);
    const bound = (await get(`/api/regions/${root.id}/bindings?successor=true`)) as unknown[];
    expect(bound).toHaveLength(50);

    const configs = (await get(`/api/query/config?resourceType=region&resourceId=${root.id}`)) as {
      metricIdentifier: string;
      name: string;
      enabled: boolean;
    }[];
    expect(configs.map((c) => c.name)).toEqual(HOME_CONFIGS.map((c) => c.name));
    expect(configs.filter((c) => c.enabled).map((c) => c.metricIdentifier)).toEqual([
      'P',
      'EP',
      'total',
      'gasTotal',
    ]);

    // The demo's alarm rules, enabled and applied to the whole plant.
    const rules = (await get('/api/alarm/rules?pageSize=100')).list as {
      name: string;
      enabled: boolean;
      things: number;
    }[];
    expect(rules.map((r) => r.name)).toEqual(DEMO_RULES.map((r) => r.name));
    expect(rules.every((r) => r.enabled)).toBe(true);
    const monitors = (await get('/api/alarm/monitors?pageSize=100')).list as { targetId: number }[];
    expect(monitors.map((m) => m.targetId)).toEqual(DEMO_RULES.map(() => root.id));
    // The 50 things of the plan include compressors and transformers: the rules cover some.
    expect(rules.find((r) => r.name === '空压机跳机')!.things).toBeGreaterThan(0);
    // The overheating motor of the simulator (its compressors' 电机温度) rings too.
    expect(abilities.find((a) => a.identifier === 'motorTemp')?.name).toBe('电机温度');
    const motor = rules.find((r) => r.name === '电机温度过高')!;
    expect(motor.things).toBe(rules.find((r) => r.name === '空压机跳机')!.things);

    // The substation's single-line diagram: transformers on the incoming side of their busbars,
    // their loads on the feeders, each bound to the thing of the plan.
    const saved = (await get('/api/diagrams')) as { id: number; name: string }[];
    expect(saved.map((d) => d.name)).toEqual(['变配电室']);
    const { graph } = (await get(`/api/diagrams/${saved[0]!.id}`)) as {
      graph: { nodes: { symbol: string; label: string; binding?: { thingId: number; power?: string } }[] };
    };
    const named = new Map((await loadPlant(thingsService)).map((x) => [x.id, x]));
    const boundTo = (symbol: string) =>
      graph.nodes.filter((n) => n.symbol === symbol).map((n) => named.get(n.binding!.thingId)?.kind);
    expect(boundTo('transformer')).toEqual(['transformer', 'transformer']);
    // Every load (cabinet meter or compressor) on a feeder of the busbar that supplies it.
    const loads = [...named.values()].filter((x) => x.kind === 'meter' || x.kind === 'compressor');
    expect(boundTo('feeder')).toHaveLength(loads.length);
    expect(new Set(boundTo('feeder'))).toEqual(new Set(['meter', 'compressor']));
    expect(graph.nodes.filter((n) => n.symbol === 'busbar')).toHaveLength(2);

    // The situation overview ships populated: the site plan, uploaded through the layout's own
    // checks (a PNG whose bytes are served back), each building and room placed inside the plan,
    // and the transformers and compressors in their rooms.
    const map = (await get('/api/dashboard/map')) as {
      image: { type: string; width: number; height: number } | null;
      placements: { resourceType: string; name: string; x: number; y: number }[];
    };
    expect(map.image).toMatchObject({ type: 'image/png', width: 1600, height: 1000 });
    const regionsPlaced = map.placements.filter((p) => p.resourceType === 'region').map((p) => p.name);
    expect(regionsPlaced.sort()).toEqual(
      [
        '一号车间',
        '二号车间',
        '动力站',
        '办公楼',
        '装配线A',
        '装配线B',
        '机加工线',
        '喷涂线',
        '变配电室',
        '空压站',
        '水泵房',
      ].sort(),
    );
    const machines = [...named.values()].filter((x) => x.kind === 'transformer' || x.kind === 'compressor');
    expect(map.placements.filter((p) => p.resourceType === 'thing')).toHaveLength(machines.length);
    expect(map.placements.every((p) => p.x > 0 && p.x < 1 && p.y > 0 && p.y < 1)).toBe(true);
    const image = await t.app.inject({
      method: 'GET',
      url: '/api/dashboard/map/image',
      headers: bearer(token),
    });
    expect(image.statusCode).toBe(200);
    expect(image.rawPayload.subarray(1, 4).toString()).toBe('PNG');
  });

  it('simulates only the metrics a category declares (a plant seeded before an ability existed)', async () => {
    const { things: thingsService, alarms } = t.app.services;
    const compressors = (await thingsService.listCategories({ name: '空压机', pageSize: 10 })).list[0]!;
    const motorTemp = (await thingsService.categoryAbilities(compressors.id)).find(
      (a) => a.identifier === 'motorTemp',
    )!;
    const rule = (await alarms.listRules({ name: '电机温度过高', page: 1, pageSize: 10 })).list[0]!;
    await alarms.deleteRule(rule.id);
    await thingsService.deleteCategoryAbility(motorTemp.id);

    const things = await loadPlant(thingsService);
    const compressor = things.find((x) => x.kind === 'compressor')!;
    expect(compressor.declared).toEqual(METRICS.compressor.filter((m) => m !== 'motorTemp'));
    expect(things.filter((x) => x.kind !== 'compressor').every((x) => x.declared === undefined)).toBe(true);
  });
});
