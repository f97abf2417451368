import type { MetricConfigPatch, RegionNode, Thing } from '@kilowatch/contract';
import type { RegionService } from '../modules/regions/index.ts';
import type { ThingsService } from '../modules/things/index.ts';
import {
  ATTR,
  attributesOf,
  CATEGORIES,
  type CategoryPlan,
  type Kind,
  MARKER_CATEGORY,
  METRICS,
  planThings,
  profileOfLabel,
  REGIONS,
  type RegionPlan,
  ROOT_REGION,
  type SimThing,
  SOURCE_VALUE,
  supplyTopology,
} from '../simulator/index.ts';
import { type DemoAlarms, seedAlarmRules } from './alarm-rules.ts';
import { type DemoDiagrams, seedDiagram } from './diagram.ts';
import { type DemoDashboard, seedLayout } from './layout.ts';

/** Saves a resource's metric configs (the metric-config service's `saveConfigs`). */
type SaveMetricConfigs = (patch: MetricConfigPatch) => Promise<unknown>;

/**
 * The services the demo plant is provisioned through, built once by the app (or the backfill
 * command) and passed in: the demo builds none itself.
 */
export interface DemoServices {
  things: ThingsService;
  regions: RegionService;
  saveConfigs: SaveMetricConfigs;
  /** The alarm centre: the demo's rules watch what the simulator does. */
  alarms: DemoAlarms;
  /** The single-line diagrams: the demo draws its substation. */
  diagrams: DemoDiagrams;
  /** The situation overview: the demo uploads its site plan and places its regions and machines. */
  dashboard: DemoDashboard;
}

/**
 * The home view's charts: the root region's metric configs. Regions sum additive metrics over all
 * their things (so P adds meters and compressors; transformers report Pin) and average the others.
 * Consumption is named without a period: each screen says whose it shows (今日…, 每分钟…).
 */
export const HOME_CONFIGS: MetricConfigPatch['configs'] = [
  {
    metricIdentifier: 'P',
    name: '总有功功率',
    enabled: true,
    aggregator: 'avg',
    function: 'avg',
    unit: 'kW',
  },
  {
    metricIdentifier: 'EP',
    name: '用电量',
    enabled: true,
    aggregator: 'sum',
    function: 'delta',
    unit: 'kWh',
  },
  {
    metricIdentifier: 'total',
    name: '用水量',
    enabled: true,
    aggregator: 'sum',
    function: 'delta',
    unit: 'm³',
  },
  {
    metricIdentifier: 'gasTotal',
    name: '用气量',
    enabled: true,
    aggregator: 'sum',
    function: 'delta',
    unit: 'Nm³',
  },
  {
    metricIdentifier: 'status',
    name: '空压机运行率',
    enabled: false,
    aggregator: 'avg',
    function: 'avg',
    unit: '',
  },
];

export interface SeedResult {
  /** False when the plant was already there (the marker category exists): nothing was written. */
  seeded: boolean;
  things: number;
  /** Region ids by name, when seeded now (the root is `示范工厂`). */
  regions: Map<string, number>;
}

async function findCategoryId(things: ThingsService, name: string): Promise<number | undefined> {
  const page = await things.listCategories({ name, pageSize: 100 });
  return page.list.find((c) => c.name === name)?.id;
}

/**
 * Creates the demo plant's metadata once: categories with abilities, models, the region tree and
 * `things` things bound to their regions. Skipped (seeded: false) when the category 电力仪表
 * already exists, so it is safe to call on every start.
 */
export async function seedPlant(services: DemoServices, options: { things: number }): Promise<SeedResult> {
  const { things: thingsService, regions: regionService } = services;
  if ((await findCategoryId(thingsService, MARKER_CATEGORY)) !== undefined) {
    return { seeded: false, things: 0, regions: new Map() };
  }
  const plan = planThings(options.things);

  // Regions first (names are unique within this plant). Every step reuses what a previous,
  // interrupted seeding left, and the marker category is created last.
  const regions = new Map<string, number>();
  const createRegion = async (node: RegionPlan, parentId: number | null, siblings: RegionNode[]) => {
    const existing = siblings.find((r) => r.name === node.name && r.resourceType === 'region');
    const id =
      existing?.id ??
      (await regionService.create({ name: node.name, description: node.description, parentId })).id;
    regions.set(node.name, id);
    for (const child of node.children) await createRegion(child, id, existing?.children ?? []);
  };
  await createRegion(REGIONS, null, await regionService.tree({}));

  // Categories, the marker category last: a seeding interrupted before this point is completed on
  // the next start (one interrupted while creating things is not: delete the categories to redo it).
  const models = new Map<Kind, number[]>();
  const ordered: CategoryPlan[] = [
    ...CATEGORIES.filter((c) => c.name !== MARKER_CATEGORY),
    ...CATEGORIES.filter((c) => c.name === MARKER_CATEGORY),
  ];
  for (const plan of ordered) {
    const id =
      (await findCategoryId(thingsService, plan.name)) ??
      (await thingsService.createCategory({ name: plan.name, description: plan.description })).id;
    const existing = new Set((await thingsService.categoryAbilities(id)).map((a) => a.identifier));
    for (const ability of plan.abilities) {
      if (!existing.has(ability.identifier)) await thingsService.createCategoryAbility(id, ability);
    }
    const have = new Map(
      (await thingsService.listModels({ categoryId: id, pageSize: 100 })).list.map((m) => [m.name, m.id]),
    );
    const ids: number[] = [];
    for (const model of plan.models) {
      ids.push(
        have.get(model.name) ??
          (
            await thingsService.createModel({
              categoryId: id,
              name: model.name,
              description: `${model.vendor} ${model.name}`,
            })
          ).id,
      );
    }
    models.set(plan.kind, ids);
  }

  const byRegion = new Map<number, number[]>();
  const idByIdentifier = new Map<string, number>();
  for (const thing of plan) {
    const modelId = models.get(thing.kind)?.[thing.model];
    const regionId = regions.get(thing.region[thing.region.length - 1]!);
    if (modelId === undefined || regionId === undefined) throw new Error(`bad plan for ${thing.identifier}`);
    const existing = (await thingsService.listThings({ name: thing.identifier, pageSize: 100 })).list.find(
      (t) => t.identifier === thing.identifier,
    );
    const created =
      existing ??
      (await thingsService.createThing({
        identifier: thing.identifier,
        name: thing.name,
        description: '示范工厂模拟设备',
        modelId,
        setting: { attributes: attributesOf(thing) },
      }));
    byRegion.set(regionId, [...(byRegion.get(regionId) ?? []), created.id]);
    idByIdentifier.set(thing.identifier, created.id);
  }
  for (const [regionId, thingIds] of byRegion) await regionService.bind(regionId, thingIds);
  const rootId = regions.get(ROOT_REGION);
  if (rootId !== undefined) {
    await services.saveConfigs({ resourceType: 'region', resourceId: rootId, configs: HOME_CONFIGS });
    await seedAlarmRules(services.alarms, rootId, (name) => findCategoryId(thingsService, name));
  }
  await seedDiagram(services.diagrams, plan, (identifier) => idByIdentifier.get(identifier));
  await seedLayout(services.dashboard, regions, plan, (identifier) => idByIdentifier.get(identifier));
  return { seeded: true, things: plan.length, regions };
}

const attribute = (thing: Thing, identifier: string): string | undefined =>
  thing.setting.attributes.find((a) => a.identifier === identifier)?.value;

/**
 * The simulated things as stored, for the simulator to publish as: things of the plant's categories whose 数据来源 attribute
 * says 模拟器, with their access tokens, in id order. Things an operator added to those
 * categories are left alone; deleted ones are simply not simulated.
 */
export async function loadPlant(
  thingsService: ThingsService,
  options: { limit?: number } = {},
): Promise<SimThing[]> {
  const result: SimThing[] = [];
  for (const plan of CATEGORIES) {
    const categoryId = await findCategoryId(thingsService, plan.name);
    if (categoryId === undefined) continue;
    const abilities = new Set((await thingsService.categoryAbilities(categoryId)).map((a) => a.identifier));
    const declared = METRICS[plan.kind].filter((metric) => abilities.has(metric));
    for (let page = 1; ; page++) {
      const { list, total } = await thingsService.listThings({ categoryId, page, pageSize: 500 });
      for (const thing of list) {
        if (attribute(thing, ATTR.source) !== SOURCE_VALUE) continue;
        const rated = Number(attribute(thing, ATTR.rated));
        result.push({
          id: thing.id,
          identifier: thing.identifier,
          name: thing.name,
          kind: plan.kind,
          rated: Number.isFinite(rated) && rated > 0 ? rated : 50,
          profile: profileOfLabel(attribute(thing, ATTR.profile) ?? '') ?? 'production',
          ...(declared.length < METRICS[plan.kind].length ? { declared } : {}),
          accessToken: '',
        });
      }
      if (page * 500 >= total) break;
    }
  }
  result.sort((a, b) => a.id - b.id);
  // Each transformer carries the loads on its busbar (over the whole plant, even when only some
  // things are chosen), so its input is theirs plus its losses, as the 变配电室 diagram draws it.
  for (const [identifier, loads] of supplyTopology(result)) {
    const transformer = result.find((x) => x.identifier === identifier);
    if (transformer) transformer.supplies = loads;
  }
  const chosen = options.limit === undefined ? result : result.slice(0, options.limit);
  for (const thing of chosen) thing.accessToken = (await thingsService.thingToken(thing.id)).accessToken;
  return chosen;
}
