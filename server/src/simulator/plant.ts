import type { CategoryAbilityInput, ThingAttribute } from '@kilowatch/contract';
import type { Kind, LoadProfile } from './kinds.ts';

/**
 * The demo plant: categories with their abilities and vendor models, the region tree, and the
 * things for a given total. Pure data; `seed.ts` writes it, `generator.ts` animates it.
 */

export interface CategoryPlan {
  kind: Kind;
  name: string;
  description: string;
  abilities: CategoryAbilityInput[];
  /** Vendor models: name and vendor (厂家 attribute of their things). */
  models: { name: string; vendor: string }[];
}

const number = (
  identifier: string,
  name: string,
  unit: string,
  sort: number,
  extra: Partial<CategoryAbilityInput> = {},
): CategoryAbilityInput => ({ identifier, name, unit, dataType: 'number', sort, ...extra });
/** A counter keeps the service's default aggregator for counters (sum: the sum of its deltas). */
const counter = (identifier: string, name: string, unit: string, sort: number): CategoryAbilityInput =>
  number(identifier, name, unit, sort, { cumulative: true });

/** The marker of a seeded plant: when this category exists, seeding is skipped. */
export const MARKER_CATEGORY = '电力仪表';

export const CATEGORIES: CategoryPlan[] = [
  {
    kind: 'meter',
    name: MARKER_CATEGORY,
    description: '多功能电力仪表：三相电压、电流、功率、电能（示范工厂）',
    abilities: [
      number('P', '有功功率', 'kW', 1),
      counter('EP', '正向有功电能', 'kWh', 2),
      number('Ua', 'A相电压', 'V', 3),
      number('Ub', 'B相电压', 'V', 4),
      number('Uc', 'C相电压', 'V', 5),
      number('Ia', 'A相电流', 'A', 6),
      number('Ib', 'B相电流', 'A', 7),
      number('Ic', 'C相电流', 'A', 8),
      number('PF', '功率因数', 'PF', 9),
      number('F', '频率', 'Hz', 10),
      counter('EQ', '正向无功电能', 'kvarh', 11),
    ],
    models: [
      { name: 'ACR320EL', vendor: '安科瑞' },
      { name: 'PM5350', vendor: '施耐德' },
      { name: 'PAC3200', vendor: '西门子' },
    ],
  },
  {
    kind: 'transformer',
    name: '变压器',
    description: '10/0.4 kV 油浸式配电变压器（示范工厂）',
    abilities: [
      number('loadRate', '负载率', '%', 1),
      number('oilTemp', '油温', '℃', 2, { aggregator: 'max' }),
      number('windingTemp', '绕组温度', '℃', 3, { aggregator: 'max' }),
      // Pin/EPin, not P/EP: the supply side of what the meters and compressors measure as loads, so
      // a region's sum of P (the home view's 总有功功率) does not count the plant twice.
      number('Pin', '进线有功功率', 'kW', 4),
      counter('EPin', '进线有功电能', 'kWh', 5),
      // The temperature controller's outdoor probe: the plant's weather for degree days (EnPI).
      number('ambientTemp', '环境温度', '℃', 6),
    ],
    models: [
      { name: 'S13-M-1250/10', vendor: '特变电工' },
      { name: 'S20-M-1600/10', vendor: '正泰电气' },
    ],
  },
  {
    kind: 'compressor',
    name: '空压机',
    description: '螺杆式空气压缩机，加载/卸载压力带控制（示范工厂）',
    abilities: [
      {
        identifier: 'status',
        name: '运转状态',
        unit: '',
        dataType: 'enum',
        aggregator: 'last',
        enumOptions: [
          { value: '0', label: '停机' },
          { value: '1', label: '运行' },
        ],
        sort: 1,
      },
      counter('runHours', '运行时长', 'h', 2),
      counter('startups', '启动次数', '次', 3),
      counter('stopHours', '停机时长', 'h', 4),
      number('P', '有功功率', 'kW', 5),
      counter('EP', '有功电能', 'kWh', 6),
      number('pressure', '排气压力', 'MPa', 7),
      number('airFlow', '排气量', 'm³/h', 8),
      number('motorTemp', '电机温度', '℃', 9, { aggregator: 'max' }),
      counter('EQ', '无功电能', 'kvarh', 10),
    ],
    models: [
      { name: 'GA75', vendor: '阿特拉斯·科普柯' },
      { name: 'R90i', vendor: '英格索兰' },
      { name: 'LS20S-132', vendor: '寿力' },
    ],
  },
  {
    kind: 'water',
    name: '水表',
    description: '远传水表（示范工厂）',
    abilities: [number('flow', '瞬时流量', 'm³/h', 1), counter('total', '累计流量', 'm³', 2)],
    models: [
      { name: 'LXLC-100', vendor: '宁波水表' },
      { name: 'DN80 电磁水表', vendor: '三川智慧' },
    ],
  },
  {
    kind: 'gas',
    name: '燃气表',
    description: '天然气流量计（示范工厂）',
    // Not flow/total like water: a region sums abilities by identifier, and m³ of water plus Nm³ of
    // gas means nothing.
    abilities: [number('gasFlow', '瞬时流量', 'Nm³/h', 1), counter('gasTotal', '累计流量', 'Nm³', 2)],
    models: [
      { name: 'TBQZ-100 涡轮流量计', vendor: '天信仪表' },
      { name: 'G65 罗茨流量计', vendor: '埃创' },
    ],
  },
  {
    kind: 'fire',
    name: '烟温复合探测器',
    description: '消防烟雾/温度复合探测器（示范工厂）',
    abilities: [
      number('smoke', '烟雾浓度', '%', 1, { aggregator: 'max' }),
      number('temp', '温度', '℃', 2, { aggregator: 'max' }),
      {
        identifier: 'state',
        name: '状态',
        unit: '',
        dataType: 'enum',
        aggregator: 'max',
        enumOptions: [
          { value: '0', label: '正常' },
          { value: '1', label: '报警' },
          { value: '2', label: '故障' },
        ],
        sort: 3,
      },
    ],
    models: [
      { name: 'JTY-GD-G3T', vendor: '海湾' },
      { name: 'FS1019', vendor: '赋安' },
    ],
  },
  {
    kind: 'line',
    name: '产线计数器',
    description: '产线出料口的产量计数器：节拍与累计产量（示范工厂，能效指标的产量来源）',
    abilities: [number('rate', '产出速率', '件/h', 1), counter('pieces', '产量', '件', 2)],
    models: [
      { name: 'H7CX-A', vendor: '欧姆龙' },
      { name: 'DHC3J', vendor: '德力西' },
    ],
  },
];

const categoryOf = (kind: Kind): CategoryPlan => CATEGORIES.find((c) => c.kind === kind)!;

// ---- regions ------------------------------------------------------------------------------------

export interface RegionPlan {
  name: string;
  description: string;
  children: RegionPlan[];
}

export const ROOT_REGION = '示范工厂';

const area = (name: string, description: string, children: string[] = []): RegionPlan => ({
  name,
  description,
  children: children.map((c) => ({ name: c, description: '', children: [] })),
});

export const REGIONS: RegionPlan = {
  name: ROOT_REGION,
  description: 'Kilowatch 演示工厂（模拟器生成）',
  children: [
    area('一号车间', '总装车间', ['装配线A', '装配线B']),
    area('二号车间', '机加工与涂装车间', ['机加工线', '喷涂线']),
    area('动力站', '变配电、空压、供水', ['变配电室', '空压站', '水泵房']),
    area('办公楼', '办公及食堂'),
  ],
};

// ---- things -------------------------------------------------------------------------------------

export interface ThingPlan {
  identifier: string;
  name: string;
  kind: Kind;
  /** Region path from below the root, e.g. ['一号车间', '装配线A']. */
  region: string[];
  rated: number;
  profile: LoadProfile;
  /** Index into the category's models. */
  model: number;
}

const MIN_THINGS = 50;
const MAX_THINGS = 200;

/** Attribute identifiers the simulator writes and reads back. */
export const ATTR = {
  location: 'location',
  rated: 'rated',
  vendor: 'vendor',
  profile: 'loadProfile',
  source: 'source',
} as const;
export const SOURCE_VALUE = '模拟器';
const PROFILE_LABEL: Record<LoadProfile, string> = {
  production: '两班制生产',
  office: '办公时段',
  utility: '公用动力',
};
export const profileOfLabel = (label: string): LoadProfile | undefined =>
  (Object.entries(PROFILE_LABEL) as [LoadProfile, string][]).find(([, l]) => l === label)?.[0];

const RATED_LABEL: Record<Kind, [name: string, unit: string]> = {
  meter: ['额定功率', 'kW'],
  transformer: ['额定容量', 'kVA'],
  compressor: ['额定功率', 'kW'],
  water: ['额定流量', 'm³/h'],
  gas: ['额定流量', 'Nm³/h'],
  fire: ['探测半径', 'm'],
  line: ['额定产能', '件/h'],
};

/** Standard ratings of distribution transformers, kVA. */
const STANDARD_KVA = [630, 800, 1000, 1250, 1600, 2000, 2500, 3150];

const pad = (n: number) => String(n).padStart(2, '0');
const clampInt = (x: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, Math.round(x)));
/** Deterministic choice from a small table by index. */
const pick = <T>(list: readonly T[], i: number): T => list[i % list.length] as T;

/** Feeder lines power meters sit on: region path, cabinet prefix, share of meters, load profile. */
const FEEDERS: { region: string[]; code: string; share: number; profile: LoadProfile; ratings: number[] }[] =
  [
    {
      region: ['一号车间', '装配线A'],
      code: 'AL-1',
      share: 0.2,
      profile: 'production',
      ratings: [30, 45, 18.5, 22, 55, 15],
    },
    {
      region: ['一号车间', '装配线B'],
      code: 'AL-1',
      share: 0.2,
      profile: 'production',
      ratings: [37, 22, 45, 15, 30, 18.5],
    },
    {
      region: ['二号车间', '机加工线'],
      code: 'AP-2',
      share: 0.25,
      profile: 'production',
      ratings: [55, 37, 75, 30, 45, 22],
    },
    {
      region: ['二号车间', '喷涂线'],
      code: 'AP-2',
      share: 0.15,
      profile: 'production',
      ratings: [75, 45, 90, 37, 30],
    },
    { region: ['动力站', '水泵房'], code: 'AP-P', share: 0.08, profile: 'utility', ratings: [55, 75, 37] },
    { region: ['办公楼'], code: 'AL-B', share: 0.12, profile: 'office', ratings: [30, 22, 45, 15, 11] },
  ];

/**
 * The things of a plant with `total` things (50–200): transformers, compressors, water and gas
 * meters and fire sensors in proportion, power meters for the rest, spread over the lines.
 */
export function planThings(total: number): ThingPlan[] {
  if (!Number.isInteger(total) || total < MIN_THINGS || total > MAX_THINGS) {
    throw new RangeError(`the demo plant has ${MIN_THINGS} to ${MAX_THINGS} things, not ${total}`);
  }
  const things: ThingPlan[] = [];
  const nTransformers = clampInt(total / 40, 2, 5);
  const nCompressors = clampInt(total / 20, 3, 10);
  const nWater = clampInt(total / 20, 2, 10);
  const nGas = clampInt(total / 40, 1, 5);
  const nFire = clampInt(total / 7, 5, 30);
  const lines = FEEDERS.filter((f) => f.profile === 'production');
  const nMeters = total - nTransformers - nCompressors - nWater - nGas - nFire - lines.length;

  for (let i = 1; i <= nCompressors; i++) {
    things.push({
      identifier: `AC-${pad(i)}`,
      name: `${i}#空压机`,
      kind: 'compressor',
      region: ['动力站', '空压站'],
      rated: pick([75, 90, 132, 75, 55], i - 1),
      profile: 'utility',
      model: (i - 1) % 3,
    });
  }

  // Power meters: each feeder gets its share; cabinets numbered per workshop code.
  const perFeeder = FEEDERS.map((f) => Math.floor(f.share * nMeters));
  let left = nMeters - perFeeder.reduce((a, b) => a + b, 0);
  for (let i = 0; left > 0; i = (i + 1) % FEEDERS.length, left--) perFeeder[i] = (perFeeder[i] ?? 0) + 1;
  const numbers = new Map<string, number>();
  FEEDERS.forEach((feeder, f) => {
    for (let i = 0; i < (perFeeder[f] ?? 0); i++) {
      const n = (numbers.get(feeder.code) ?? 0) + 1;
      numbers.set(feeder.code, n);
      const line = feeder.region[feeder.region.length - 1];
      things.push({
        identifier: `${feeder.code}-${pad(n)}`,
        name: `${line} ${i + 1}#配电柜`,
        kind: 'meter',
        region: feeder.region,
        rated: pick(feeder.ratings, i),
        profile: feeder.profile,
        model: (n - 1) % 3,
      });
    }
  });

  // Transformers sized so that at full production their loads take 70–85 % of their capacity
  // (each supplies a run of the loads in proportion to its kVA: `supplyTopology`), the next
  // standard rating up.
  const peakLoad = things.reduce((sum, t) => sum + t.rated * (t.kind === 'compressor' ? 0.6 : 0.93), 0);
  const perTransformer = peakLoad / (0.92 * 0.76 * 0.93) / nTransformers;
  const transformers: ThingPlan[] = [];
  for (let i = 1; i <= nTransformers; i++) {
    const wanted = perTransformer * pick([1, 0.8, 1.2, 0.9, 1.1], i - 1);
    transformers.push({
      identifier: `TR-${pad(i)}`,
      name: `${i}#变压器`,
      kind: 'transformer',
      region: ['动力站', '变配电室'],
      rated: STANDARD_KVA.find((kva) => kva >= wanted) ?? STANDARD_KVA[STANDARD_KVA.length - 1]!,
      profile: 'utility',
      model: (i - 1) % 2,
    });
  }
  things.unshift(...transformers);

  // One production counter per production line, at its outlet: the EnPI's output (docs/enpi.md).
  lines.forEach((feeder, i) => {
    const line = feeder.region[feeder.region.length - 1];
    things.push({
      identifier: `PC-${pad(i + 1)}`,
      name: `${line}产量计数器`,
      kind: 'line',
      region: feeder.region,
      rated: pick([240, 200, 90, 150], i),
      profile: 'production',
      model: i % 2,
    });
  });

  const waterPlaces: [string[], string, LoadProfile, number][] = [
    [['动力站', '水泵房'], '总进水', 'utility', 40],
    [['一号车间'], '一号车间', 'production', 12],
    [['二号车间', '喷涂线'], '喷涂线', 'production', 18],
    [['办公楼'], '办公楼', 'office', 8],
    [['二号车间', '机加工线'], '机加工线', 'production', 10],
    [['动力站', '空压站'], '空压站冷却', 'utility', 15],
  ];
  for (let i = 1; i <= nWater; i++) {
    const [region, label, profile, rated] = pick(waterPlaces, i - 1);
    const round = Math.floor((i - 1) / waterPlaces.length);
    things.push({
      identifier: `WM-${pad(i)}`,
      name: round === 0 ? `${label}水表` : `${label}${round + 1}#水表`,
      kind: 'water',
      region,
      rated,
      profile,
      model: (i - 1) % 2,
    });
  }
  const gasPlaces: [string[], string, LoadProfile, number][] = [
    [['二号车间', '喷涂线'], '喷涂线烘干炉', 'production', 120],
    [['办公楼'], '食堂', 'office', 25],
    [['动力站'], '锅炉房', 'utility', 200],
  ];
  for (let i = 1; i <= nGas; i++) {
    const [region, label, profile, rated] = pick(gasPlaces, i - 1);
    const round = Math.floor((i - 1) / gasPlaces.length);
    things.push({
      identifier: `GM-${pad(i)}`,
      name: round === 0 ? `${label}燃气表` : `${label}${round + 1}#燃气表`,
      kind: 'gas',
      region,
      rated,
      profile,
      model: (i - 1) % 2,
    });
  }
  const firePlaces: string[][] = [
    ['一号车间', '装配线A'],
    ['一号车间', '装配线B'],
    ['二号车间', '机加工线'],
    ['二号车间', '喷涂线'],
    ['动力站', '变配电室'],
    ['动力站', '空压站'],
    ['办公楼'],
  ];
  const fireCount = new Map<string, number>();
  for (let i = 1; i <= nFire; i++) {
    const region = pick(firePlaces, i - 1);
    const place = region[region.length - 1]!;
    const n = (fireCount.get(place) ?? 0) + 1;
    fireCount.set(place, n);
    things.push({
      identifier: `FS-${pad(i)}`,
      name: `${place}${n}#烟温探测器`,
      kind: 'fire',
      region,
      rated: 7.5,
      profile: 'utility',
      model: (i - 1) % 2,
    });
  }
  return things;
}

/** The attributes a planned thing is created with (安装位置, 额定…, 厂家, 负荷特性, 数据来源). */
export function attributesOf(thing: ThingPlan): ThingAttribute[] {
  const category = categoryOf(thing.kind);
  const [ratedName, ratedUnit] = RATED_LABEL[thing.kind];
  return [
    { identifier: ATTR.location, name: '安装位置', value: [ROOT_REGION, ...thing.region].join('/') },
    { identifier: ATTR.rated, name: `${ratedName}(${ratedUnit})`, value: String(thing.rated) },
    { identifier: ATTR.vendor, name: '厂家', value: category.models[thing.model]?.vendor ?? '' },
    { identifier: ATTR.profile, name: '负荷特性', value: PROFILE_LABEL[thing.profile] },
    { identifier: ATTR.source, name: '数据来源', value: SOURCE_VALUE },
  ];
}
