import { DIAGRAM_MAX_NODES } from '@kilowatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, login, type TestApp } from '../../../test/helpers.ts';
import { type Plant, seedPlant } from '../../ingest/testing.ts';
import { editorWith, roleGranting } from '../system/testing.ts';
import { type Api, apiAs } from '../things/testing.ts';

// biome-ignore lint/suspicious/noExplicitAny: tests read whatever the body holds
type Body = any;

const thresholds = { lossPct: 5, imbalancePct: 2 };

describe.each(dialects())('single-line diagrams on %s', (dialect) => {
  let t: TestApp;
  let api: Api;
  let english: Api;
  let keeper: Api;
  let reader: Api;
  let plant: Plant;
  const ok = async <T = Body>(p: Promise<{ status: number; body: Body }>): Promise<T> => {
    const res = await p;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as T;
  };
  const station = () => ({
    nodes: [
      {
        id: 'in1',
        symbol: 'incoming',
        x: 100,
        y: 0,
        label: '10kV 进线',
        binding: { thingId: plant.things[0]!.id, shown: ['P'], power: 'P' },
      },
      {
        id: 'qf1',
        symbol: 'breaker',
        x: 100,
        y: 80,
        label: 'QF1',
        binding: { thingId: plant.things[0]!.id, shown: [], status: 'ON', closedValue: 'true' },
      },
      { id: 'bus', symbol: 'busbar', x: 0, y: 160, width: 400, label: 'I 段母线' },
      {
        id: 'f1',
        symbol: 'feeder',
        x: 50,
        y: 240,
        label: '1# 出线',
        binding: { thingId: plant.things[1]!.id, shown: ['P', 'EP'], power: 'P' },
      },
      {
        id: 'f2',
        symbol: 'feeder',
        x: 250,
        y: 240,
        label: '2# 出线',
        binding: { thingId: plant.pump.id, shown: ['T'], power: 'P' },
      },
    ],
    edges: [
      { id: 'e1', source: 'in1', target: 'qf1' },
      { id: 'e2', source: 'qf1', target: 'bus' },
      { id: 'e3', source: 'bus', target: 'f1' },
      { id: 'e4', source: 'bus', target: 'f2' },
    ],
    thresholds,
  });

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    const { token } = await login(t.app);
    api = apiAs(() => t.app, token);
    english = apiAs(() => t.app, token, { 'accept-language': 'en' });
    plant = await seedPlant(api, 2);
    const roleId = await roleGranting(api, 'diagram-editor', ['/electricDiagram/index']);
    keeper = (await editorWith(() => t.app, api, 'diagram-keeper', [roleId])).api as unknown as Api;
    reader = (await editorWith(() => t.app, api, 'diagram-reader')).api as unknown as Api;
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates, lists, saves, renames and deletes diagrams; the graph comes back as saved', async () => {
    const empty = await ok(api.post('/api/diagrams', { name: '变配电室' }));
    expect(empty.graph).toEqual({ nodes: [], edges: [], thresholds });
    const other = await ok(api.post('/api/diagrams', { name: '空压站', graph: station() }));
    expect(other.graph).toEqual(station());

    const saved = await ok(api.patch(`/api/diagrams/${empty.id}`, { graph: station() }));
    expect(saved.graph).toEqual(station());
    expect(saved.name).toBe('变配电室');
    const renamed = await ok(api.patch(`/api/diagrams/${empty.id}`, { name: '1# 变配电室' }));
    expect(renamed.graph).toEqual(station());
    expect((await ok(api.get(`/api/diagrams/${empty.id}`))).name).toBe('1# 变配电室');

    const list = await ok<Body[]>(api.get('/api/diagrams'));
    expect(list.map((d) => d.name)).toEqual(['1# 变配电室', '空压站']);
    expect(list[0]).not.toHaveProperty('graph');

    await ok(api.del(`/api/diagrams/${other.id}`));
    expect((await api.get(`/api/diagrams/${other.id}`)).status).toBe(404);
    expect((await api.del(`/api/diagrams/${other.id}`)).status).toBe(404);
    expect((await ok<Body[]>(api.get('/api/diagrams'))).map((d) => d.id)).toEqual([empty.id]);
    await ok(api.del(`/api/diagrams/${empty.id}`));
  });

  it('refuses a taken name with 409, in the caller’s language', async () => {
    const first = await ok(api.post('/api/diagrams', { name: '总配电' }));
    const taken = await english.post('/api/diagrams', { name: '总配电' });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('A single-line diagram named "总配电" already exists');
    const second = await ok(api.post('/api/diagrams', { name: '分配电' }));
    expect((await api.patch(`/api/diagrams/${second.id}`, { name: '总配电' })).status).toBe(409);
    await ok(api.del(`/api/diagrams/${first.id}`));
    await ok(api.del(`/api/diagrams/${second.id}`));
  });

  it('validates the graph: symbol kinds, wire ends, ids, bound things and metrics, sizes', async () => {
    const created = await ok(api.post('/api/diagrams', { name: '校验' }));
    const save = (graph: Body) => english.patch(`/api/diagrams/${created.id}`, { graph });
    const base = station();

    const badSymbol = await save({ ...base, nodes: [{ ...base.nodes[0], symbol: 'teleporter' }] });
    expect(badSymbol.status).toBe(400);

    const dangling = await save({
      ...base,
      edges: [...base.edges, { id: 'e9', source: 'bus', target: 'nowhere' }],
    });
    expect(dangling.status).toBe(422);
    expect(dangling.body.message).toBe('Wire e9 connects symbol nowhere, which does not exist');

    const loop = await save({ ...base, edges: [{ id: 'e9', source: 'bus', target: 'bus' }] });
    expect(loop.status).toBe(422);

    const twice = await save({ ...base, edges: [...base.edges, { id: 'bus', source: 'in1', target: 'f1' }] });
    expect(twice.status).toBe(422);
    expect(twice.body.message).toBe('Symbol id bus is used twice');

    const ghost = { ...base.nodes[3], binding: { thingId: 999_999, shown: ['P'] } };
    const unknownThing = await save({ ...base, nodes: [...base.nodes.slice(0, 3), ghost, base.nodes[4]] });
    expect(unknownThing.status).toBe(422);
    expect(unknownThing.body.message).toBe(
      'Symbol "1# 出线" is bound to device 999999, which does not exist or has no metrics',
    );

    // The pump has P and T only: EP is a meter's.
    const wrong = { ...base.nodes[4], binding: { thingId: plant.pump.id, shown: ['EP'] } };
    const unknownMetric = await save({ ...base, nodes: [...base.nodes.slice(0, 4), wrong] });
    expect(unknownMetric.status).toBe(422);
    expect(unknownMetric.body.message).toBe('The device bound to symbol "2# 出线" has no metric EP');

    const tooMany = Array.from({ length: DIAGRAM_MAX_NODES + 1 }, (_, i) => ({
      id: `n${i}`,
      symbol: 'meter',
      x: i,
      y: 0,
      label: '',
    }));
    expect((await save({ nodes: tooMany, edges: [], thresholds })).status).toBe(400);
    expect((await save({ ...base, thresholds: { lossPct: 120, imbalancePct: 2 } })).status).toBe(400);

    // Nothing of the refused saves was kept.
    expect((await ok(api.get(`/api/diagrams/${created.id}`))).graph.nodes).toEqual([]);
    await ok(api.del(`/api/diagrams/${created.id}`));
  });

  it('lets every user read; writes need a grant of /electricDiagram/index', async () => {
    const made = await ok(keeper.post('/api/diagrams', { name: '授权' }));
    expect((await reader.get('/api/diagrams')).status).toBe(200);
    expect((await reader.get(`/api/diagrams/${made.id}`)).status).toBe(200);
    expect((await reader.post('/api/diagrams', { name: '越权' })).status).toBe(403);
    expect((await reader.patch(`/api/diagrams/${made.id}`, { name: '越权' })).status).toBe(403);
    expect((await reader.del(`/api/diagrams/${made.id}`)).status).toBe(403);
    await ok(keeper.patch(`/api/diagrams/${made.id}`, { graph: station() }));
    await ok(keeper.del(`/api/diagrams/${made.id}`));
  });
});
