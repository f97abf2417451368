import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  type FastifyInstance,
  type FastifyRequest,
  LogController,
  type RouteOptions,
} from 'fastify';
import { createCluster, sharedJwtSecret, shareLive } from './cluster/index.ts';
import { type Config, embeddedStoreOptions } from './config.ts';
import { type Database, migrateToLatest, openDatabase, ping } from './db/index.ts';
import { HistoryProgress } from './demo/index.ts';
import {
  connectionRoutes,
  type IngestService,
  influxRoutes,
  ingestRoutes,
  type MqttIngest,
} from './ingest/index.ts';
import { createMemoryLive } from './live/index.ts';
import { alarmNotifyRoutes, alarmRoutes } from './modules/alarms/index.ts';
import { authenticate, authRoutes, createStreamTickets } from './modules/auth/index.ts';
import { boardPageRoutes } from './modules/board/index.ts';
import { dashboardRoutes } from './modules/dashboard/index.ts';
import { diagramRoutes } from './modules/diagrams/index.ts';
import {
  enpiRoutes,
  filterGroupRoutes,
  reportRoutes,
  reportScheduleRoutes,
  statisticsRoutes,
  tariffRoutes,
} from './modules/energy/index.ts';
import { exploreRoutes } from './modules/explore/index.ts';
import { healthRoutes } from './modules/health/index.ts';
import { metricConfigRoutes } from './modules/metric-configs/index.ts';
import { closeIdleWhileClosing, metricsRoutes, observeRequests, opsRoutes } from './modules/ops/index.ts';
import { boardRoutes, queryRoutes } from './modules/query/index.ts';
import { regionRoutes } from './modules/regions/index.ts';
import { bootstrapSystem, systemRoutes } from './modules/system/index.ts';
import { thingsRoutes } from './modules/things/index.ts';
import { unitsRoutes } from './modules/units/index.ts';
import { ensureAdmin, type FirstStartAdmin, userRoutes } from './modules/users/index.ts';
import { compression } from './plugins/compression.ts';
import { errorHandler } from './plugins/error-handler.ts';
import { createHeavyGate, heavyWork } from './plugins/heavy-work.ts';
import { multipartBoundary } from './plugins/multipart-boundary.ts';
import { openapi } from './plugins/openapi.ts';
import { securityHeaders } from './plugins/security-headers.ts';
import { serialization } from './plugins/serialization.ts';
import { validation } from './plugins/validation.ts';
import { web } from './plugins/web.ts';
import { buildServices, type Services } from './services.ts';
import {
  HOUR,
  type OpenedTelemetryStore,
  openTelemetryStore,
  type TelemetryStore,
} from './telemetry/index.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Database;
    /** Set when this start created the admin account; server.ts tells the operator once. */
    firstStartAdmin: FirstStartAdmin | undefined;
    /** The telemetry store (DATA_DIR/telemetry.duckdb), closed after the HTTP server. */
    telemetry: TelemetryStore;
    /** Telemetry ingest: the service every source writes through, and the MQTT side. */
    ingest: { service: IngestService; mqtt: MqttIngest };
    /** Every service, built once (services.ts): the demo plant takes what it needs from here. */
    services: Services;
    /** The demo plant's background history (demo/history.ts), served at /api/demo/history. */
    demoHistory: HistoryProgress;
  }
}

export interface AppOptions {
  /** Milliseconds since the epoch. Tests move it to expire tokens and throttle windows. */
  now?: () => number;
  /** Called as soon as the first start created the admin account (server.ts prints the login). */
  onFirstStartAdmin?: (admin: FirstStartAdmin) => void;
  /** Sees every route as it is added (the route-permission test walks them all). */
  onRoute?: (route: RouteOptions) => void;
  /** Where the logs go instead of stdout's JSON lines (server.ts: readable lines on a terminal). */
  logStream?: NodeJS.WritableStream;
}

/** Access tokens may arrive as ?token= (spec §7), stream tickets as ?ticket=; neither belongs in the logs. */
const redactUrl = (url: string): string => url.replace(/([?&](?:token|ticket)=)[^&]*/gi, '$1[redacted]');

/**
 * The whole server, ready to listen or to be driven with `inject`: migrations run, the first
 * admin exists, plugins then modules are registered. Closing it closes the database.
 */
export async function buildApp(given: Config, options: AppOptions = {}): Promise<FastifyInstance> {
  let config = given;
  const now = options.now ?? Date.now;
  const database = openDatabase(config.database);
  let firstStartAdmin: FirstStartAdmin | undefined;
  let telemetry: OpenedTelemetryStore;
  try {
    await migrateToLatest(database.db, database.dialect);
    // Replicas without JWT_SECRET sign with one key, kept in the shared database (docs/cluster.md).
    if (database.dialect === 'postgres' && !config.jwtSecretGiven) {
      config = { ...config, jwtSecret: await sharedJwtSecret(database.db, config.jwtSecret) };
    }
    firstStartAdmin = await ensureAdmin(database.db, config.adminPassword, new Date(now()));
    // Told at once: if a later step fails (a port in use), the generated password is not lost.
    if (firstStartAdmin) options.onFirstStartAdmin?.(firstStartAdmin);
    await bootstrapSystem(database.db, new Date(now()));
    telemetry = await openTelemetryStore({
      ...embeddedStoreOptions(config),
      now,
      url: config.telemetry.url,
      selectUrl: config.telemetry.selectUrl,
    });
  } catch (error) {
    await database.close();
    throw error;
  }

  const app = Fastify({
    trustProxy: config.trustProxy,
    // One line per request at info buried the start output (2,774 lines in 11 minutes): requests
    // are logged at debug by the onResponse hook below.
    logController: new LogController({ disableRequestLogging: true }),
    logger: {
      level: config.logLevel,
      ...(options.logStream ? { stream: options.logStream } : {}),
      // Fastify does not log bodies, but a future debug line must not leak a password either.
      redact: ['req.body.password', 'body.password', 'password'],
      serializers: {
        req: (request: FastifyRequest) => ({
          method: request.method,
          url: redactUrl(request.url),
          remoteAddress: request.ip,
        }),
      },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.addHook('onResponse', async (request, reply) => {
    request.log.debug(
      {
        method: request.method,
        url: redactUrl(request.url),
        statusCode: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'request',
    );
  });
  if (telemetry.upgraded) {
    app.log.info(
      { rowsWithEdgeReading: telemetry.upgraded },
      'telemetry: minute, hour and day rollups recomputed for interval-ending counters (a reading on a bucket edge closes the bucket before it; docs/telemetry-store.md#upgrade)',
    );
  }
  app.decorate('db', database);
  app.decorate('heavy', createHeavyGate());
  app.decorate('firstStartAdmin', firstStartAdmin);
  const demoHistory = new HistoryProgress();
  app.decorate('demoHistory', demoHistory);
  app.addHook('onClose', () => database.close());
  // onClose hooks run after the HTTP server closed, last added first: MQTT stops, then the store
  // closes (its pending writes committed), then the database.
  const retention = setInterval(() => {
    telemetry
      .applyRetention(now())
      .catch((error: unknown) => app.log.error({ err: error }, 'retention failed'));
  }, HOUR);
  retention.unref();
  app.decorate('telemetry', telemetry as TelemetryStore);
  app.addHook('onClose', async () => {
    clearInterval(retention);
    await telemetry.close();
  });
  if (options.onRoute) app.addHook('onRoute', options.onRoute);

  try {
    // Replicas on one PostgreSQL database coordinate through it (docs/cluster.md); it closes after
    // the alarm runner has stopped (onClose hooks run last added first).
    const cluster = createCluster(config.database, app.log.child({ module: 'cluster' }));
    app.addHook('onClose', () => cluster.close());
    await cluster.start();
    const live = shareLive(
      createMemoryLive((error) => app.log.error({ err: error }, 'live listener failed')),
      cluster,
      app.log.child({ module: 'live' }),
    );
    const services = buildServices({ config, database, store: telemetry, live, cluster, now, log: app.log });
    const { ingest, mqtt } = services;
    app.decorate('services', services);
    const streamTickets = createStreamTickets(database.db, now);
    app.decorate('ingest', { service: ingest, mqtt });
    // Runs after MQTT stopped (last added first): every message being written finishes before the
    // store closes, so what was acknowledged is durable and nothing is cut half-way; then the
    // parse workers end.
    app.addHook('onClose', () => ingest.close());
    app.addHook('onClose', () => services.ops.ingestSettled());
    app.addHook('onClose', () => mqtt.stop());

    securityHeaders(app);
    errorHandler(app);
    validation(app);
    serialization(app);
    multipartBoundary(app);
    await compression(app);
    await openapi(app);
    observeRequests(app, services.ops.metrics);
    closeIdleWhileClosing(app);

    await app.register(
      async (api) => {
        authenticate(api, services.auth, streamTickets);
        heavyWork(api, app.heavy);
        await api.register(healthRoutes, { database, demoHistory: () => demoHistory.get() });
        await api.register(opsRoutes, {
          readiness: services.ops.readiness,
          backup: { dataDir: config.dataDir, database, telemetry },
          opsToken: config.ops.token,
        });
        await api.register(authRoutes, { prefix: '/auth', service: services.auth });
        await api.register(thingsRoutes, { prefix: '/thing', service: services.things });
        await api.register(unitsRoutes, { db: database.db });
        await api.register(regionRoutes, { service: services.regions });
        await api.register(userRoutes, { service: services.users });
        await api.register(systemRoutes, { services: services.system });
        await api.register(ingestRoutes, { service: ingest, mqtt });
        await api.register(connectionRoutes, {
          listenHost: config.host,
          mqttUrl: config.ingest.mqttUrl,
          mqtt,
        });
        await api.register(metricConfigRoutes, { service: services.metricConfigs });
        await api.register(queryRoutes, {
          service: services.query,
          live,
          auth: services.auth,
          tickets: streamTickets,
          now,
          onStreams: (open) => services.ops.metrics.sseClients(open),
        });
        await api.register(boardRoutes, { service: services.query });
        await api.register(alarmRoutes, { service: services.alarms });
        await api.register(alarmNotifyRoutes, { settings: services.alarmNotify.settings });
        await api.register(reportRoutes, {
          service: services.reports,
          query: services.query,
          calendar: services.calendar,
          now,
          plant: async () => (await services.regions.tree({}))[0]?.name ?? null,
        });
        await api.register(reportScheduleRoutes, { schedules: services.reportSchedules });
        await api.register(tariffRoutes, {
          service: services.tariffs,
          plant: {
            get: async () => (await services.system.sysConfigs.erpConfig()).tariffId ?? null,
            set: (tariffId) => services.system.sysConfigs.setPlantTariff(tariffId),
          },
        });
        await api.register(filterGroupRoutes, { service: services.filterGroups });
        await api.register(dashboardRoutes, { service: services.dashboard });
        await api.register(statisticsRoutes, {
          service: services.statistics,
          configs: services.statisticsConfigs,
          erpConfig: () => services.system.sysConfigs.erpConfig(),
          tariffs: services.tariffs,
          calendar: services.calendar,
        });
        await api.register(boardPageRoutes, { service: services.board });
        await api.register(enpiRoutes, { service: services.enpi });
        await api.register(diagramRoutes, { service: services.diagrams });
        await api.register(exploreRoutes, { service: services.explore });
      },
      { prefix: '/api' },
    );
    await app.register(metricsRoutes, { metrics: services.ops.metrics, opsToken: config.ops.token });
    // InfluxDB clients call /ping, /health and /write at the server's root.
    await app.register(influxRoutes, { service: ingest, ping: () => ping(database.db) });
    await web(app, config.webDist);
    // Last added runs first: the runner stops (its last alarms queued), then the notifier.
    app.addHook('onClose', () => services.alarmNotify.notifier.stop());
    app.addHook('onClose', () => services.alarmRunner.stop());
    app.addHook('onClose', () => services.reportSchedules.stop());
    await app.ready();
    // The alarm engine listens before devices connect, so their first points are judged too.
    await services.alarmRunner.start();
    services.alarmNotify.notifier.start();
    services.reportSchedules.start();
    // Devices connect once the whole app can take their data.
    await mqtt.start();
  } catch (error) {
    await app.close();
    throw error;
  }
  return app;
}
