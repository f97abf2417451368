import * as contract from '@kilowatch/contract';
import { isEndpoint } from '@kilowatch/contract';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { type Client, client, editorWith, roleGranting } from '../src/modules/system/testing.ts';
import { buildTestApp, dialects, login, type TestApp } from './helpers.ts';

/**
 * Non-public /api routes deliberately open to every logged-in user (no `resource`, no `roles`).
 * A new route that declares neither fails this test until someone decides: add a resource, or
 * add it here (and to docs/permissions.md).
 */
const OPEN_TO_EVERY_USER = new Set([
  'GET /api/auth/me',
  'GET /api/demo/history',
  'GET /api/thing/categories',
  'GET /api/thing/categories/:categoryId/abilities',
  'GET /api/thing/models',
  'GET /api/thing/models/:id/abilities',
  'GET /api/thing/things',
  'GET /api/thing/things/:id',
  'GET /api/thing/things/:id/abilities',
  'GET /api/units',
  'GET /api/regions',
  'GET /api/regions/bindings',
  'GET /api/regions/:id/bindings',
  'GET /api/query/config',
  'POST /api/query/data',
  'GET /api/query/realtime',
  'GET /api/query/live',
  'POST /api/query/live/ticket',
  'GET /api/board/components/:regionId',
  'GET /api/regions/unbound',
  'POST /api/auth/password',
  // Explore views are each user's own: the service scopes every call to its caller (docs/explore.md).
  'GET /api/explore/views',
  'POST /api/explore/views',
  'PATCH /api/explore/views/:id',
  'DELETE /api/explore/views/:id',
  // The alarm centre: everyone reads; acknowledge, comment and (un)shelve are every operator's,
  // close is checked in the handler against /alarm_center/alarm_history (docs/alarms.md).
  'GET /api/alarm/rules',
  'POST /api/alarm/rules/backtest',
  'GET /api/alarm/templates',
  'GET /api/alarm/monitors',
  'GET /api/alarm/maintenance',
  'GET /api/alarm/history',
  'GET /api/alarm/history/:id',
  'POST /api/alarm/history/:id/actions',
  'GET /api/alarm/health',
  'GET /api/alarm/spans',
  'GET /api/alarm/things/:id/events',
  'GET /api/alarm/out-of-service',
  // KPI reports: everyone reads and exports them; writes need /analysis/kpi (docs/permissions.md).
  'GET /api/reports',
  'GET /api/reports/:id/components',
  'POST /api/statistics/report/output',
  // Tariffs, cost by band and bills are read by everyone, as the other energy reads; tariff writes
  // need /analysis/tariff (docs/tariffs.md).
  'GET /api/tariffs',
  'GET /api/tariffs/plant',
  'GET /api/tariffs/regions',
  'GET /api/tariffs/:id',
  'POST /api/statistics/range/TPFC',
  'POST /api/tariffs/bill',
  // Statistics: everyone reads and exports; writing the plant's config is checked in the
  // handler against /analysis/report, a user's own config is theirs (docs/statistics.md).
  'GET /api/statistics/configs/config',
  'PUT /api/statistics/configs/config',
  'POST /api/statistics/range',
  'POST /api/statistics/output',
  'POST /api/statistics/report/erp/xlsx',
  'GET /api/filter-groups',
  'GET /api/filters',
  // Workshop board: a TV's account reads the pages and their components; writes need
  // /workshopBoard (docs/board.md).
  'GET /api/board/pages',
  'GET /api/board/pages/:id/components',
  // EnPI and baselines: everyone reads definitions, outputs and reports; writes need
  // /analysis/enpi (docs/enpi.md).
  'GET /api/enpi',
  'GET /api/enpi/:id',
  'GET /api/enpi/abilities',
  'GET /api/enpi/:id/outputs',
  'GET /api/enpi/:id/report',
  // The situation overview: everyone sees it (a wall screen); editing the map needs /dashboard
  // (docs/dashboard.md).
  'GET /api/dashboard/overview',
  'GET /api/dashboard/map',
  'GET /api/dashboard/map/image',
  // Single-line diagrams: everyone reads them; writes need /electricDiagram/index (docs/electric-diagram.md).
  'GET /api/diagrams',
  'GET /api/diagrams/:id',
  // Video monitoring (/video, a static route): what plays, never an RTSP source (docs/video.md).
  'GET /api/video/cameras',
]);
/**
 * Public for the user-token hook but guarded by a device access token of their own (telemetry
 * ingest): without one they answer 401 to everybody.
 */
const DEVICE_TOKEN_ROUTES = new Set([
  'POST /api/telemetry',
  'POST /api/v2/write',
  'POST /api/v1/:token/telemetry',
]);
/** Served outside the authenticated /api context on purpose: the OpenAPI document and its UI. */
const DOCS_PREFIX = '/api/docs';

interface Seen {
  method: string;
  url: string;
  config: RouteOptions['config'];
}

describe.each(dialects())('route permissions on %s', (dialect) => {
  let t: TestApp;
  const routes: Seen[] = [];
  let admin: Client;
  let editor: Client;
  let anonymous: Client;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    // Rebuild on the same database with a hook that sees every route as it is added.
    await t.app.close();
    t.app = await buildApp(t.config, {
      now: t.clock.now,
      onRoute: (route) => {
        for (const method of [route.method].flat()) {
          if (method !== 'HEAD' && route.url.startsWith('/api')) {
            routes.push({ method, url: route.url, config: route.config });
          }
        }
      },
    });
    admin = client(() => t.app, (await login(t.app)).token);
    editor = (await editorWith(() => t.app, admin, 'walker')).api;
    anonymous = client(() => t.app, '');
  });
  afterAll(async () => {
    await t.close();
  });

  /** A syntactically valid call: ids 999999, an empty JSON body where one is taken. */
  const call = (as: Client, { method, url }: Seen) => {
    const path = url.replace(/:\w+/g, '999999').replace(/\*$/, 'x');
    if (method === 'GET') return as.get(path);
    if (method === 'DELETE') return as.del(path);
    if (method === 'POST') return as.post(path, {});
    if (method === 'PUT') return as.put(path, {});
    return as.patch(path, {});
  };
  const key = (r: Seen) => `${r.method} ${r.url}`;

  it('sees the routes', () => {
    expect(routes.length).toBeGreaterThan(40);
  });

  it('decides every route: public, guarded by a resource or role, or deliberately open', async () => {
    const undecided: string[] = [];
    const failures: string[] = [];
    for (const route of routes) {
      const config = route.config ?? {};
      if (route.url.startsWith(DOCS_PREFIX)) continue;
      if (config.public && DEVICE_TOKEN_ROUTES.has(key(route))) {
        for (const [who, as] of [
          ['anonymous', anonymous],
          ['editor', editor],
          ['admin', admin],
        ] as const) {
          const res = await call(as, route);
          if (res.status !== 401) failures.push(`${key(route)} device-token route, ${who} got ${res.status}`);
        }
        continue;
      }
      if (config.public) {
        for (const [who, as] of [
          ['anonymous', anonymous],
          ['editor', editor],
        ] as const) {
          const res = await call(as, route);
          if ([401, 403].includes(res.status) || res.status >= 500) {
            failures.push(`${key(route)} public, ${who} got ${res.status}`);
          }
        }
        continue;
      }
      const guarded = config.resource !== undefined || (config.roles?.length ?? 0) > 0;
      if (!guarded && !OPEN_TO_EVERY_USER.has(key(route))) undecided.push(key(route));
      const asEditor = await call(editor, route);
      if (guarded && asEditor.status !== 403)
        failures.push(`${key(route)} guarded, editor got ${asEditor.status}`);
      if (!guarded && (asEditor.status === 403 || asEditor.status >= 500)) {
        failures.push(`${key(route)} open, editor got ${asEditor.status}`);
      }
      const asAdmin = await call(admin, route);
      if (asAdmin.status === 403 || asAdmin.status === 401 || asAdmin.status >= 500) {
        failures.push(`${key(route)} admin got ${asAdmin.status}: ${JSON.stringify(asAdmin.body)}`);
      }
      if ((await call(anonymous, route)).status !== 401) failures.push(`${key(route)} anonymous not 401`);
    }
    expect(undecided, 'routes without resource/roles that are not in OPEN_TO_EVERY_USER').toEqual([]);
    expect(failures).toEqual([]);
  });

  it('keeps the allow-list honest: every entry is a real, open route', () => {
    const byKey = new Map(routes.map((r) => [key(r), r]));
    for (const entry of OPEN_TO_EVERY_USER) {
      const route = byKey.get(entry);
      expect(route, `${entry} is not a route any more`).toBeDefined();
      expect(route?.config?.resource, `${entry} declares a resource now`).toBeUndefined();
    }
  });

  it('registers every endpoint the contract declares', () => {
    const registered = new Set(routes.map(key));
    const declared = (Object.values(contract) as unknown[]).filter(isEndpoint);
    expect(declared.map((e) => `${e.method} ${e.path}`).filter((k) => !registered.has(k))).toEqual([]);
  });

  it('lets a role grant reach a guarded route end to end', async () => {
    const category = (await admin.post('/api/thing/categories', { name: '电表' })).body.data;
    const model = (await admin.post('/api/thing/models', { categoryId: category.id, name: 'A型' })).body.data;
    const thing = { identifier: 'G1', name: '电表G1', modelId: model.id };
    expect((await editor.post('/api/thing/things', thing)).status).toBe(403);

    const roleId = await roleGranting(admin, 'node-keeper', ['/device_management/nodes']);
    const keeper = await editorWith(() => t.app, admin, 'keeper', [roleId]);
    const created = await keeper.api.post('/api/thing/things', thing);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    // The grant is for nodes only.
    expect(
      (await keeper.api.post('/api/thing/models', { categoryId: category.id, name: 'B型' })).status,
    ).toBe(403);
    expect((await keeper.api.get('/api/users')).status).toBe(403);
  });
});
