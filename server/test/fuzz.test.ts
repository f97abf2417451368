import type { InjectOptions, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { type Client, client } from '../src/modules/system/testing.ts';
import { bearer, buildTestApp, dialects, login, type TestApp } from './helpers.ts';

/**
 * Contract-driven fuzz test (issue 8): every operation the app registers, found through the
 * onRoute hook (so a route added later is fuzzed without editing this file), gets malformed
 * variants of a call its own schema describes — wrong types, non-finite, huge and lenient
 * numbers, NUL characters, missing and extra fields, oversize strings, bad JSON, wrong content
 * types — as an admin. No answer may be a 5xx; a variant the schema must refuse answers 400;
 * the data seeded first is unchanged afterwards and every list still reads.
 *
 * Deterministic: values come from the schemas and a seeded PRNG, so a failure names a call that
 * fails again. Bounded: at most VARIANTS_PER_PART variants per route part (4,576 calls over 73
 * routes today, 15–40 s per database on a shared 2-core machine).
 */

const SEED = 0x5eed_cafe;
const VARIANTS_PER_PART = 60;
/** An id that exists in no table: the baseline of every id, so an accepted variant touches nothing seeded. */
const ABSENT_ID = 999_999;
/** Id 1 exists in every seeded table; the lenient forms below name it. */
const LENIENT_IDS = ['0x1', '1e0', '+1', '01', '1.0', ' 1', '1 ', '0b1', '0o1', '1.', '.1e1', '1_0'];
const NON_FINITE_TEXT = ['Infinity', '-Infinity', 'NaN', '1e400', '-1e400', '99999999999999999999'];
const INT32_MAX = 2_147_483_647;
/** The text a `number` parameter may be (server/src/plugins/validation.ts). */
const NUMBER_GRAMMAR = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;
const INT32_MIN = -2_147_483_648;
/** How long a call may take; a stream (no 2xx body declared) may stay open instead. */
const CALL_TIMEOUT_MS = 5_000;

type Schema = Record<string, unknown>;
type Part = 'params' | 'querystring' | 'body';

interface Route {
  method: string;
  url: string;
  schema: Partial<Record<Part | 'response' | 'consumes', unknown>>;
  /** The route validates its body itself (telemetry ingest): the contract's schema is documentation. */
  ownValidator: boolean;
  /** The access token may come as `?token=` (EventSource): a bad one there is a 401, not a 400. */
  queryToken: boolean;
  public: boolean;
}

interface Variant {
  /** What was changed, for the failure message. */
  what: string;
  params: Record<string, string>;
  query: string;
  body?: { text: string; type: string };
  /** The schema refuses it, so the answer must be a 400 (not a 2xx, a 404 or a 5xx). */
  refuse: boolean;
}

/** mulberry32: small, fast, and the same sequence on every machine. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null;
const branches = (schema: Schema): Schema[] =>
  ([schema.anyOf, schema.oneOf].filter(Array.isArray).flat() as unknown[]).filter(isSchema);

/** The JSON types a schema declares, through unions; 'any' when it declares none. */
function types(schema: Schema): Set<string> {
  const found = new Set<string>();
  const type = schema.type;
  if (typeof type === 'string') found.add(type);
  else if (Array.isArray(type)) for (const t of type) found.add(String(t));
  else if ('const' in schema) found.add(typeof schema.const === 'string' ? 'string' : 'other');
  else if (Array.isArray(schema.enum))
    found.add(schema.enum.every((v) => typeof v === 'string') ? 'string' : 'other');
  else if (branches(schema).length === 0) found.add('any');
  for (const branch of branches(schema)) for (const t of types(branch)) found.add(t);
  return found;
}

const isIdSchema = (schema: Schema): boolean =>
  schema.type === 'integer' && schema.minimum === 1 && schema.maximum === INT32_MAX;

/** Text candidates for a string schema, tried in order against its pattern and length limits. */
const STRING_CANDIDATES = (n: number) => [
  `Fz${n}`,
  `fz-${n}`,
  `http://fz${n}.example`,
  '#a1b2c3',
  `Fuzz${n}x!`,
  'xlsx',
  'Admin123',
];

function fitsString(text: string, schema: Schema): boolean {
  if (typeof schema.minLength === 'number' && text.length < schema.minLength) return false;
  if (typeof schema.maxLength === 'number' && text.length > schema.maxLength) return false;
  return typeof schema.pattern !== 'string' || new RegExp(schema.pattern).test(text);
}

/** A value the schema accepts, with every id absent from the database. */
function sample(schema: Schema, n: number): unknown {
  if ('default' in schema) return schema.default;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const options = branches(schema);
  if (options.length > 0) {
    const chosen = options.find((b) => b.type !== 'null') ?? options[0];
    return chosen ? sample(chosen, n) : null;
  }
  switch (schema.type) {
    case 'string': {
      const fit = STRING_CANDIDATES(n).find((c) => fitsString(c, schema));
      return fit ?? 'x'.repeat(Math.max(1, Number(schema.minLength ?? 1)));
    }
    case 'integer':
      return isIdSchema(schema) ? ABSENT_ID : Number(schema.minimum ?? 0);
    case 'number':
      return Number(schema.minimum ?? 0);
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'array': {
      const items = isSchema(schema.items) ? schema.items : {};
      return Array.from({ length: Math.max(1, Number(schema.minItems ?? 1)) }, () => sample(items, n));
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      if (isSchema(schema.properties)) {
        for (const [key, property] of Object.entries(schema.properties)) {
          if (isSchema(property)) out[key] = sample(property, n);
        }
      }
      return out;
    }
    default:
      return {};
  }
}

/** A JSON value whose text is written as is, for what JSON.stringify cannot say (1e400). */
class Raw {
  constructor(readonly text: string) {}
}
function toJson(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof Raw) {
      raws.push(v.text);
      return `\u0001raw${raws.length - 1}\u0001`;
    }
    return v;
  });
  return text.replace(/"\\u0001raw(\d+)\\u0001"/g, (_m, i: string) => raws[Number(i)] ?? 'null');
}

interface Defect {
  what: string;
  value: unknown;
  refuse: boolean;
}

/** Wrong values for one body field of this schema; `refuse` where the schema cannot take them. */
function bodyDefects(schema: Schema, required: boolean): Defect[] {
  const t = types(schema);
  if (t.has('any')) return [{ what: 'NUL text', value: 'a\u0000b', refuse: true }];
  const takes = (type: string) => t.has(type);
  const out: Defect[] = [];
  const wrongType = (what: string, value: unknown, type: string) =>
    out.push({ what, value, refuse: !takes(type) && !(type === 'integer' && takes('number')) });
  wrongType('null', null, 'null');
  wrongType('a boolean', true, 'boolean');
  wrongType('an object', {}, 'object');
  wrongType('an array', [], 'array');
  if (takes('integer') || takes('number')) {
    for (const text of ['1e400', '-1e400', '1e309'])
      out.push({ what: `raw ${text}`, value: new Raw(text), refuse: true });
    for (const text of ['Infinity', '1e400', 'NaN', '1', '0x1']) {
      out.push({ what: `text "${text}"`, value: text, refuse: !takes('string') });
    }
    const bounds = branches(schema)
      .concat(schema)
      .filter((s) => s.type === 'integer' || s.type === 'number');
    for (const s of bounds) {
      if (typeof s.maximum === 'number')
        out.push({ what: 'above maximum', value: s.maximum + 1, refuse: bounds.length === 1 });
      if (typeof s.minimum === 'number')
        out.push({ what: 'below minimum', value: s.minimum - 1, refuse: bounds.length === 1 });
    }
    out.push({
      what: 'int32 overflow',
      value: INT32_MAX + 1,
      refuse: bounds.every((s) => typeof s.maximum === 'number' && s.maximum <= INT32_MAX),
    });
    out.push({
      what: 'int32 underflow',
      value: INT32_MIN - 1,
      refuse: bounds.every((s) => typeof s.minimum === 'number' && s.minimum >= INT32_MIN),
    });
    out.push({
      what: 'beyond 2^53',
      value: new Raw('9007199254740993'),
      refuse: bounds.every((s) => typeof s.maximum === 'number' && s.maximum < 2 ** 53),
    });
    out.push({ what: 'a fraction', value: 1.5, refuse: !takes('number') });
    out.push({ what: 'a lenient id text', value: '0x1', refuse: !takes('string') });
  } else {
    wrongType('a number', 123, 'number');
  }
  if (takes('string')) {
    const strings = branches(schema)
      .concat(schema)
      .filter((s) => s.type === 'string');
    out.push({ what: 'NUL text', value: 'a\u0000b', refuse: true });
    out.push({ what: 'only NUL', value: '\u0000', refuse: true });
    out.push({ what: 'a lone surrogate', value: '\ud800', refuse: false });
    out.push({ what: 'empty text', value: '', refuse: false });
    const max = Math.max(
      100,
      ...strings.map((s) => (typeof s.maxLength === 'number' ? s.maxLength : 100_000)),
    );
    out.push({
      what: 'oversize text',
      value: 'x'.repeat(max + 1),
      refuse: strings.every((s) => typeof s.maxLength === 'number'),
    });
    const wide = Math.min(max + 1, 200_000);
    out.push({
      what: 'oversize wide text',
      value: '電'.repeat(wide),
      refuse: wide > max && strings.every((s) => typeof s.maxLength === 'number'),
    });
  }
  if (required) out.push({ what: 'missing', value: undefined, refuse: true });
  return out;
}

/** Every field of a sampled body, as a path of keys and the schema that describes it. */
function fields(
  schema: Schema,
  path: (string | number)[] = [],
): Array<{ path: (string | number)[]; schema: Schema; required: boolean }> {
  const out: Array<{ path: (string | number)[]; schema: Schema; required: boolean }> = [];
  const objects = [schema, ...branches(schema)].filter((s) => s.type === 'object' && isSchema(s.properties));
  for (const object of objects.slice(0, 1)) {
    const required = new Set(Array.isArray(object.required) ? object.required : []);
    for (const [key, property] of Object.entries(object.properties as Schema)) {
      if (!isSchema(property)) continue;
      out.push({ path: [...path, key], schema: property, required: required.has(key) });
      out.push(...fields(property, [...path, key]));
    }
  }
  const arrays = [schema, ...branches(schema)].filter((s) => s.type === 'array' && isSchema(s.items));
  for (const array of arrays.slice(0, 1)) {
    out.push({ path: [...path, 0], schema: array.items as Schema, required: true });
    out.push(...fields(array.items as Schema, [...path, 0]));
  }
  return out;
}

/** A copy of `value` with the field at `path` set (or deleted when `to` is undefined). */
function setAt(value: unknown, path: (string | number)[], to: unknown): unknown {
  const copy = structuredClone(value);
  let holder = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) {
    const next = holder[key];
    if (!isSchema(next)) return copy;
    holder = next as Record<string | number, unknown>;
  }
  const last = path[path.length - 1];
  if (last === undefined) return to;
  if (to === undefined) delete holder[last];
  else holder[last] = to;
  return copy;
}

/** Wrong texts for a path or query parameter; `refuse` where the schema cannot take them. */
function textDefects(schema: Schema): Defect[] {
  const t = types(schema);
  const numeric = (t.has('integer') || t.has('number')) && !t.has('string');
  const out: Defect[] = [
    { what: 'NUL', value: 'a\u0000', refuse: true },
    { what: 'bad escape', value: '%zz', refuse: numeric },
  ];
  if (numeric) {
    // An integer (an id) is plain decimal digits; a number (a time in ms) may add a fraction and an
    // exponent (docs/robustness.md), within its bounds.
    const fractional = t.has('number');
    const inBounds = (value: number) =>
      (typeof schema.minimum !== 'number' || value >= schema.minimum) &&
      (typeof schema.maximum !== 'number' || value <= schema.maximum);
    const acceptedNumber = (text: string) =>
      fractional && NUMBER_GRAMMAR.test(text) && Number.isFinite(Number(text)) && inBounds(Number(text));
    for (const text of [...LENIENT_IDS, ...NON_FINITE_TEXT]) {
      // `1.` and `.1e1` are not numbers in either grammar; a fraction is a number, not an integer.
      out.push({ what: `"${text}"`, value: text, refuse: !acceptedNumber(text) });
    }
    out.push({
      what: 'int32 overflow',
      value: String(INT32_MAX + 1),
      refuse: !acceptedNumber(String(INT32_MAX + 1)),
    });
    out.push({ what: 'empty', value: '', refuse: !t.has('null') });
    out.push({ what: 'a word', value: 'abc', refuse: true });
    out.push({ what: 'negative', value: '-1', refuse: true });
  } else if (t.has('string')) {
    const max = typeof schema.maxLength === 'number' ? schema.maxLength : 5_000;
    out.push({ what: 'oversize', value: 'x'.repeat(max + 1), refuse: typeof schema.maxLength === 'number' });
    out.push({ what: 'lenient ids', value: '0x1,+1,1e0', refuse: false });
    out.push({ what: 'huge id', value: '99999999999999999999', refuse: false });
  } else if (t.has('boolean')) {
    out.push(
      { what: 'a word', value: 'maybe', refuse: true },
      { what: 'a number', value: '2', refuse: true },
    );
  }
  return out;
}

const encode = (text: string): string => (text === '%zz' ? text : encodeURIComponent(text));
const queryString = (query: Record<string, unknown>): string =>
  Object.entries(query)
    .flatMap(([key, value]) =>
      (Array.isArray(value) ? value : [value]).map((v) => `${encode(key)}=${encode(String(v))}`),
    )
    .join('&');

/** Every malformed variant of one route, before sampling. */
function variantsOf(route: Route, rand: () => number): Variant[] {
  const paramsSchema = isSchema(route.schema.params) ? route.schema.params : undefined;
  const querySchema = isSchema(route.schema.querystring) ? route.schema.querystring : undefined;
  const bodySchema = isSchema(route.schema.body) ? route.schema.body : undefined;
  const names = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
  const baseParams = Object.fromEntries(names.map((name) => [name, String(ABSENT_ID)]));
  // Only the required query parameters: an optional one such as `token` changes what the call means.
  const requiredQuery = new Set(Array.isArray(querySchema?.required) ? querySchema.required : []);
  const baseQuery = Object.fromEntries(
    Object.entries(querySchema ? (sample(querySchema, 1) as Record<string, unknown>) : {}).filter(([key]) =>
      requiredQuery.has(key),
    ),
  );
  const baseBody = bodySchema ? sample(bodySchema, 1) : undefined;
  const json = (value: unknown) => ({ text: toJson(value), type: 'application/json' });
  const base = {
    params: baseParams,
    query: queryString(baseQuery),
    ...(baseBody === undefined ? {} : { body: json(baseBody) }),
  };
  const pick = (all: Variant[]) => {
    // Fisher–Yates with the seeded PRNG, then the first VARIANTS_PER_PART.
    for (let i = all.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [all[i], all[j]] = [all[j] as Variant, all[i] as Variant];
    }
    return all.slice(0, VARIANTS_PER_PART);
  };

  const params: Variant[] = [];
  for (const name of names) {
    const property =
      paramsSchema?.properties && isSchema(paramsSchema.properties)
        ? paramsSchema.properties[name]
        : undefined;
    const defects = isSchema(property)
      ? textDefects(property)
      : [{ what: 'NUL', value: 'a\u0000', refuse: false }];
    for (const d of defects) {
      params.push({
        ...base,
        what: `param ${name} ${d.what}`,
        params: { ...baseParams, [name]: String(d.value) },
        refuse: d.refuse,
      });
    }
  }

  const query: Variant[] = [];
  const queryProperties = querySchema && isSchema(querySchema.properties) ? querySchema.properties : {};
  for (const [name, property] of Object.entries(queryProperties)) {
    if (!isSchema(property)) continue;
    for (const d of textDefects(property)) {
      query.push({
        ...base,
        what: `query ${name} ${d.what}`,
        query: queryString({ ...baseQuery, [name]: d.value }),
        refuse: d.refuse,
      });
    }
    query.push({
      ...base,
      what: `query ${name} repeated`,
      query: queryString({ ...baseQuery, [name]: [baseQuery[name] ?? '1', '2'] }),
      refuse: false,
    });
    if (requiredQuery.has(name)) {
      const { [name]: _dropped, ...rest } = baseQuery;
      query.push({ ...base, what: `query ${name} missing`, query: queryString(rest), refuse: true });
    }
  }
  query.push({ ...base, what: 'query extra key', query: `${base.query}&zz=1`, refuse: false });
  query.push({ ...base, what: 'query NUL key', query: `${base.query}&z%00=1`, refuse: false });

  const body: Variant[] = [];
  if (bodySchema) {
    for (const field of fields(bodySchema)) {
      const name = field.path.join('.');
      for (const d of bodyDefects(field.schema, field.required)) {
        body.push({
          ...base,
          what: `body ${name} ${d.what}`,
          body: json(setAt(baseBody, field.path, d.value)),
          refuse: d.refuse,
        });
      }
    }
    for (const d of bodyDefects(bodySchema, true).filter((d) => d.value !== undefined)) {
      body.push({ ...base, what: `body ${d.what}`, body: json(d.value), refuse: d.refuse });
    }
    if (isSchema(baseBody) && !Array.isArray(baseBody)) {
      body.push({ ...base, what: 'body extra field', body: json({ ...baseBody, zz: 1 }), refuse: false });
      body.push({ ...base, what: 'body NUL key', body: json({ ...baseBody, 'z\u0000': 1 }), refuse: true });
    }
  }
  // Whatever the route takes, a body it cannot parse is a 4xx.
  const whole: Array<[string, string, string]> = [
    ['bad JSON', '{"a":', 'application/json'],
    ['empty JSON', '', 'application/json'],
    ['JSON null', 'null', 'application/json'],
    ['JSON text', '"x"', 'application/json'],
    ['JSON 1e400', '1e400', 'application/json'],
    ['__proto__', '{"__proto__":{"admin":true}}', 'application/json'],
    ['constructor.prototype', '{"constructor":{"prototype":{"admin":true}}}', 'application/json'],
    ['deep nesting', `${'['.repeat(20_000)}${']'.repeat(20_000)}`, 'application/json'],
    ['over the body limit', `{"a":"${'x'.repeat(1_100_000)}"}`, 'application/json'],
    ['UTF-16 charset', '{}', 'application/json; charset=utf-16'],
    ['text/plain', toJson(baseBody ?? {}), 'text/plain'],
    ['form', 'a=1&b=2', 'application/x-www-form-urlencoded'],
    ['multipart without boundary', 'x', 'multipart/form-data'],
    ['multipart, empty boundary', 'x', 'multipart/form-data; boundary='],
    ['multipart, garbage', 'garbage', 'multipart/form-data; boundary=zz'],
    [
      'multipart, truncated',
      '--zz\r\ncontent-disposition: form-data; name="file"; filename="a.csv"\r\n\r\nidentifier,name',
      'multipart/form-data; boundary=zz',
    ],
    [
      'multipart, wrong field',
      '--zz\r\ncontent-disposition: form-data; name="other"\r\n\r\nx\r\n--zz--\r\n',
      'multipart/form-data; boundary=zz',
    ],
    [
      'multipart, NUL file name',
      '--zz\r\ncontent-disposition: form-data; name="file"; filename="a\u0000.csv"\r\n\r\nidentifier,name,model\r\nA\u0000,b,c\r\n--zz--\r\n',
      'multipart/form-data; boundary=zz',
    ],
    ['unknown type', '<x/>', 'application/xml'],
  ];
  // Fastify reads no body on GET: two bodies are enough to show it is ignored.
  const bodies = route.method === 'GET' ? whole.slice(0, 2) : whole;
  const wholeVariants: Variant[] = bodies.map(([what, text, type]) => ({
    ...base,
    what: `whole body: ${what}`,
    body: { text, type },
    refuse: false,
  }));

  return [...pick(params), ...pick(query), ...pick(body), ...wholeVariants];
}

describe.each(dialects())('contract fuzz on %s', (dialect) => {
  let t: TestApp;
  const routes: Route[] = [];
  let admin: Client;
  let token: string;
  /** A second session of the admin, the one logout variants may end. */
  let spareToken: string;
  const seeded = { things: [] as number[], categories: [] as number[], models: [] as number[] };

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    await t.app.close();
    t.app = await buildApp(t.config, {
      now: t.clock.now,
      onRoute: (route: RouteOptions) => {
        for (const method of [route.method].flat()) {
          if (method === 'HEAD' || !route.url.startsWith('/api') || route.url.startsWith('/api/docs'))
            continue;
          routes.push({
            method,
            url: route.url,
            schema: (route.schema ?? {}) as Route['schema'],
            ownValidator: route.validatorCompiler !== undefined,
            queryToken: route.config?.queryToken === true,
            public: route.config?.public === true,
          });
        }
      },
    });
    token = (await login(t.app)).token;
    spareToken = (await login(t.app)).token;
    admin = client(() => t.app, token);
    await seed();
  }, 60_000);
  afterAll(async () => {
    await t.close();
  });

  const ok = async <T>(call: Promise<{ status: number; body: { data: T } }>): Promise<T> => {
    const res = await call;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };

  /** A small plant: ids 1… in every table, so the lenient forms of 1 name real rows. */
  async function seed() {
    for (const name of ['电表', '水表', '空压机']) {
      const category = await ok<{ id: number }>(
        admin.post('/api/thing/categories', { name, description: `${name}类` }),
      );
      seeded.categories.push(category.id);
      for (const [identifier, abilityName, unit] of [
        ['P', '功率', 'kW'],
        ['EP', '电能', 'kWh'],
      ] as const) {
        await ok(
          admin.post(`/api/thing/categories/${category.id}/abilities`, {
            identifier,
            name: abilityName,
            unit,
          }),
        );
      }
      const model = await ok<{ id: number }>(
        admin.post('/api/thing/models', { categoryId: category.id, name: `${name}A型` }),
      );
      seeded.models.push(model.id);
    }
    for (const [i, modelId] of [
      seeded.models[0],
      seeded.models[0],
      seeded.models[1],
      seeded.models[2],
    ].entries()) {
      const thing = await ok<{ id: number }>(
        admin.post('/api/thing/things', {
          identifier: `T${i + 1}`,
          name: `设备${i + 1}`,
          modelId,
          setting: { attributes: [{ identifier: 'loc', name: '位置', value: `${i + 1}号柜` }] },
        }),
      );
      seeded.things.push(thing.id);
    }
    const plant = await ok<{ id: number }>(admin.post('/api/regions', { name: '一厂' }));
    const shop = await ok<{ id: number }>(admin.post('/api/regions', { name: '一车间', parentId: plant.id }));
    await ok(admin.post('/api/regions', { name: '二车间', parentId: plant.id }));
    await ok(admin.post(`/api/regions/${shop.id}/bindings`, { thingIds: seeded.things.slice(0, 2) }));
    const role = await ok<{ id: number }>(
      admin.post('/api/roles', { code: 'keeper', name: '维护', resourcePaths: ['/device_management/nodes'] }),
    );
    const group = await ok<{ id: number }>(admin.post('/api/groups', { name: '运维组' }));
    for (const username of ['zhang', 'li']) {
      await ok(
        admin.post('/api/users', {
          username,
          password: 'Editor12',
          name: username,
          userLevel: 2,
          roleIds: [role.id],
          groupIds: [group.id],
        }),
      );
    }
    await ok(admin.post('/api/videos', { name: '门口', streamUrl: 'rtsp://cam.example/1' }));
  }

  /**
   * What the data looks like from outside, row by row (`id` → row). After the fuzz, the rows
   * present before must read the same; rows the fuzz created are not compared.
   */
  async function snapshot(): Promise<Record<string, Record<number, unknown>>> {
    const byId = (rows: unknown[]) =>
      Object.fromEntries((rows as Array<{ id: number }>).map((row) => [row.id, row]));
    const out: Record<string, Record<number, unknown>> = {};
    for (const url of [
      '/api/thing/categories?pageSize=1000',
      '/api/thing/models?pageSize=1000',
      '/api/thing/things?pageSize=1000',
      '/api/users?pageSize=1000',
      '/api/roles?pageSize=1000',
      '/api/groups?pageSize=1000',
      '/api/videos?pageSize=1000',
      '/api/sysconfigs?pageSize=1000',
    ]) {
      out[url] = byId((await ok<{ list: unknown[] }>(admin.get(url))).list);
    }
    const nodes: unknown[] = [];
    const walk = (tree: unknown[]) => {
      for (const node of tree as Array<{ id: number; children: unknown[] }>) {
        nodes.push({ ...node, children: node.children.map((c) => (c as { id: number }).id) });
        walk(node.children);
      }
    };
    walk(await ok<unknown[]>(admin.get('/api/regions')));
    out.regions = byId(nodes);
    out.bindings = byId(
      (await ok<Array<{ regionId: number; thing: { id: number } }>>(admin.get('/api/regions/bindings'))).map(
        (b) => ({ ...b, id: b.regionId * 1_000_000 + b.thing.id }),
      ),
    );
    for (const id of seeded.categories) {
      out[`category ${id} abilities`] = byId(await ok(admin.get(`/api/thing/categories/${id}/abilities`)));
    }
    for (const id of seeded.models) {
      out[`model ${id} abilities`] = { 0: await ok(admin.get(`/api/thing/models/${id}/abilities`)) };
    }
    for (const id of seeded.things) {
      out[`thing ${id} abilities`] = { 0: await ok(admin.get(`/api/thing/things/${id}/abilities`)) };
    }
    return out;
  }

  /** The rows of `after` that were there before. */
  const known = (
    before: Record<string, Record<number, unknown>>,
    after: Record<string, Record<number, unknown>>,
  ) =>
    Object.fromEntries(
      Object.entries(before).map(([key, rows]) => [
        key,
        Object.fromEntries(Object.keys(rows).map((id) => [id, after[key]?.[Number(id)]])),
      ]),
    );

  const call = async (route: Route, variant: Variant) => {
    const path = route.url.replace(/:(\w+)/g, (_m, name: string) =>
      encode(variant.params[name] ?? String(ABSENT_ID)),
    );
    const url = variant.query ? `${path}?${variant.query}` : path;
    const isLogout = route.url === '/api/auth/logout';
    const options: InjectOptions = {
      method: route.method as InjectOptions['method'],
      url,
      headers: { ...bearer(isLogout ? spareToken : token), 'accept-language': 'en' },
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    };
    if (variant.body) {
      options.payload = variant.body.text;
      options.headers = { ...options.headers, 'content-type': variant.body.type };
    }
    return t.app.inject(options);
  };

  /** A route that declares a 2xx body answers JSON; the others may stream (the live channel). */
  const declaresJson = (route: Route) =>
    Object.keys(isSchema(route.schema.response) ? route.schema.response : {}).some((s) => s.startsWith('2'));
  /** A file download (its 2xx body is binary): not a list, and it may rightly be absent (404). */
  const answersFile = (route: Route) =>
    Object.entries(isSchema(route.schema.response) ? route.schema.response : {}).some(
      ([s, schema]) => s.startsWith('2') && isSchema(schema) && schema.format === 'binary',
    );

  /**
   * The status a refused variant answers: 400. A malformed `?token=` is refused like any other
   * field, because the fuzzing session's header token is the one used (the header wins over the
   * query token: docs/auth.md).
   */
  const REFUSED = 400;

  it('finds the routes', () => {
    expect(routes.length).toBeGreaterThan(40);
  });

  it('bounds every number a route takes to a 32-bit column or a finite range', () => {
    const unbounded: string[] = [];
    const visit = (schema: unknown, where: string) => {
      if (!isSchema(schema)) return;
      if (schema.type === 'integer') {
        const { minimum, maximum } = schema as { minimum?: number; maximum?: number };
        if (minimum === undefined || maximum === undefined || minimum < INT32_MIN || maximum > INT32_MAX)
          unbounded.push(`${where}: integer [${minimum}, ${maximum}]`);
      }
      if (
        schema.type === 'number' &&
        (!Number.isFinite(schema.minimum) || !Number.isFinite(schema.maximum))
      ) {
        unbounded.push(`${where}: number [${schema.minimum}, ${schema.maximum}]`);
      }
      for (const branch of branches(schema)) visit(branch, where);
      if (isSchema(schema.properties))
        for (const [k, v] of Object.entries(schema.properties)) visit(v, `${where}.${k}`);
      visit(schema.items, `${where}[]`);
      visit(schema.additionalProperties, `${where}{}`);
      if (isSchema(schema.patternProperties))
        for (const v of Object.values(schema.patternProperties)) visit(v, `${where}{}`);
    };
    for (const route of routes) {
      // Telemetry ingest checks each value itself and answers per value (docs/ingest.md).
      if (route.ownValidator) continue;
      for (const part of ['params', 'querystring', 'body'] as const)
        visit(route.schema[part], `${route.method} ${route.url} ${part}`);
    }
    expect(unbounded).toEqual([]);
  });

  it('declares every path parameter in the route schema, so it is checked like any other input', () => {
    const undeclared = routes.flatMap((route) => {
      const params =
        isSchema(route.schema.params) && isSchema(route.schema.params.properties)
          ? route.schema.params.properties
          : {};
      return [...route.url.matchAll(/:(\w+)/g)]
        .map((m) => m[1] as string)
        .filter((name) => !(name in params))
        .map((name) => `${route.method} ${route.url} :${name}`);
    });
    expect(undeclared).toEqual([]);
  });

  it('answers every malformed call without a 5xx, refuses what the schema refuses, keeps the data', async () => {
    const before = await snapshot();
    const rand = prng(SEED);
    const failures: string[] = [];
    let calls = 0;
    let streams = 0;
    const started = performance.now();
    for (const route of routes) {
      const declaresBody = declaresJson(route);
      for (const variant of variantsOf(route, rand)) {
        calls++;
        const where = `${route.method} ${route.url} [${variant.what}]`;
        let res: Awaited<ReturnType<typeof call>>;
        try {
          res = await call(route, variant);
        } catch (error) {
          // A stream (no 2xx body declared, e.g. the live SSE channel) may stay open: that is its answer.
          if (!declaresBody && (error as Error).name === 'TimeoutError') streams++;
          else failures.push(`${where}: no answer (${(error as Error).message})`);
          continue;
        }
        if (res.statusCode >= 500) failures.push(`${where}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        else if (variant.refuse && !route.ownValidator && res.statusCode !== REFUSED)
          failures.push(`${where}: expected ${REFUSED}, got ${res.statusCode} ${res.body.slice(0, 200)}`);
        else if (res.statusCode >= 400) {
          const body = res.json() as { code?: unknown; message?: unknown };
          if (typeof body.code !== 'string' || typeof body.message !== 'string' || body.message === '')
            failures.push(`${where}: ${res.statusCode} without { code, message }: ${res.body.slice(0, 200)}`);
        }
      }
    }
    const seconds = (performance.now() - started) / 1000;
    console.info(
      `fuzz on ${dialect}: ${calls} calls over ${routes.length} routes in ${seconds.toFixed(1)} s (${streams} streams left open)`,
    );
    expect(failures).toEqual([]);

    expect(known(before, await snapshot())).toEqual(before);
    // Every list still reads: each user-facing GET (not public, so not a device-token route)
    // without path parameters or required query parameters, that answers a JSON body.
    for (const route of routes) {
      const query = isSchema(route.schema.querystring) ? route.schema.querystring : {};
      const needsQuery = Array.isArray(query.required) && query.required.length > 0;
      if (route.method !== 'GET' || route.url.includes(':') || needsQuery || route.public) continue;
      if (!declaresJson(route) || answersFile(route)) continue;
      const res = await admin.get(route.url);
      expect(res.status, `${route.url}: ${JSON.stringify(res.body)}`).toBe(200);
    }
  }, 180_000);
});
