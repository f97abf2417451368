import { PlantCalendar } from '@kilowatch/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Cluster } from './cluster/index.ts';
import type { Config } from './config.ts';
import { type Database, ping } from './db/index.ts';
import { createIngestService, createMqttIngest } from './ingest/index.ts';
import type { Live } from './live/index.ts';
import { createAlarmNotify, createAlarmRunner, createAlarmsService } from './modules/alarms/index.ts';
import {
  createAuthService,
  createLoginThrottle,
  createTokens,
  deriveLoginKey,
} from './modules/auth/index.ts';
import { createBoardService } from './modules/board/index.ts';
import { createCatalog } from './modules/catalog/index.ts';
import { createDashboardService } from './modules/dashboard/index.ts';
import { createDiagramsService } from './modules/diagrams/index.ts';
import {
  createEnpiService,
  createFilterGroupService,
  createReportSchedules,
  createReportsService,
  createStatisticsConfigs,
  createStatisticsService,
  createTariffService,
} from './modules/energy/index.ts';
import { createExploreService } from './modules/explore/index.ts';
import { createMailer } from './modules/mail/index.ts';
import { createMetricConfigService } from './modules/metric-configs/index.ts';
import { createMetrics, createReadiness, instrumentIngest, instrumentStore } from './modules/ops/index.ts';
import { createQueryService } from './modules/query/index.ts';
import { createRegionService } from './modules/regions/index.ts';
import { createSystemServices } from './modules/system/index.ts';
import { createThingsService } from './modules/things/index.ts';
import { accounts, createUserAdminService } from './modules/users/index.ts';
import type { OpenedTelemetryStore } from './telemetry/index.ts';

export interface ServiceDeps {
  config: Config;
  database: Database;
  store: OpenedTelemetryStore;
  live: Live;
  /** How this process coordinates with other replicas (cluster/; one process: nothing to tell). */
  cluster: Cluster;
  now: () => number;
  log: FastifyBaseLogger;
}

/**
 * Every service of the server, each built once: the only place that wires one module's service
 * into another's. app.ts registers routes with these; the demo plant and the backfill CLI take
 * what they need from here instead of building their own.
 */
export function buildServices(deps: ServiceDeps) {
  const { config, live, cluster, now, log } = deps;
  const { db } = deps.database;
  // Every service reads and writes telemetry through the timed store (/metrics).
  const metrics = createMetrics();
  const store = instrumentStore(deps.store, metrics);
  // One plant calendar for every service that reads days, months and periods (its offsets cached).
  const calendar = new PlantCalendar(config.telemetry.timeZone);

  // The catalog caches what these two services write: they tell it after every write. It is
  // declared below them; their onChange runs only on a write, by which time it exists.
  const metadataChanged = () => {
    catalog.changed();
    // Monitors on regions cover what is bound there now: the runner resolves them again.
    void alarmRunner.reload();
  };
  const onChange = () => {
    metadataChanged();
    cluster.broadcast('catalog', '');
  };
  cluster.subscribe('catalog', metadataChanged);
  const things = createThingsService({ db, now, seen: () => store.lastSeen(), onChange });
  const regions = createRegionService({
    db,
    now,
    onChange,
    categoryNames: (ids) => things.categoryNames(ids),
  });
  const catalog = createCatalog({ things, regions });

  const counted = instrumentIngest(
    createIngestService({
      catalog,
      live,
      store,
      log: log.child({ module: 'ingest' }),
      now,
      maxBatch: config.ingest.maxBatch,
      writableFrom: (at) => store.writableFrom(at),
    }),
    metrics,
  );
  const ingest = counted.ingest;
  const mqtt = createMqttIngest(ingest, {
    port: config.ingest.mqttPort,
    url: config.ingest.mqttUrl,
    shareGroup: config.ingest.mqttShareGroup,
    maxPacket: config.ingest.mqttMaxPacket,
    host: config.host,
    instance: String(config.port),
    log: log.child({ module: 'mqtt' }),
  });

  const tokens = createTokens({
    secret: config.jwtSecret,
    accessTtl: config.accessTokenTtl,
    refreshTtl: config.refreshTokenTtl,
    now,
  });
  const auth = createAuthService({
    db,
    tokens,
    throttle: createLoginThrottle({ db, now }),
    loginKey: deriveLoginKey(config.jwtSecret),
    now,
    timeZone: config.telemetry.timeZone,
    accounts,
  });

  const query = createQueryService({
    store,
    live,
    catalog,
    calendar,
    now,
  });

  const metricConfigs = createMetricConfigService({ db, catalog, now });
  const users = createUserAdminService(db, now);
  const system = createSystemServices({
    db,
    now,
    // tariffs is built below; the settings only ask once the app serves requests.
    tariffExists: async (id) => (await tariffs.list()).some((t) => t.id === id),
  });

  // Notifications only queue from these hooks: neither the engine nor an operator's call waits on
  // a webhook or a mail server.
  const alarmNotify = createAlarmNotify({
    db,
    now,
    timeZone: config.telemetry.timeZone,
    log: log.child({ module: 'alarm-notify' }),
    allowList: () => system.sysConfigs.webhookAllowList(),
  });
  const alarmRunner = createAlarmRunner({
    db,
    catalog,
    live,
    now,
    log: log.child({ module: 'alarms' }),
    owns: (monitorId) => cluster.ownsMonitor(monitorId),
    keepTimers: cluster.mode === 'replica',
    // Notifications commit with the alarm they tell of; the sender looks once the commit is done.
    recordNotifications: (tx, written) => alarmNotify.notifier.recordWritten(tx, written),
    onWritten: () => alarmNotify.notifier.wake(),
  });
  // Partitions given up are dropped and their last transitions written before another replica
  // takes them; partitions taken resume from alarm history.
  cluster.onOwnershipChange(async () => {
    await alarmRunner.reload();
    await alarmRunner.flush();
  });
  cluster.subscribe('alarms', () => void alarmRunner.reload());
  const alarms = createAlarmsService({
    db,
    catalog,
    store,
    now,
    onChange: () => {
      void alarmRunner.reload();
      cluster.broadcast('alarms', '');
    },
    onAction: (action) => alarmNotify.notifier.alarmActed(action),
  });

  const reports = createReportsService({ db, catalog, now });
  // Scheduled reports mail through the alarm centre's SMTP settings.
  const reportSchedules = createReportSchedules({
    db,
    now,
    calendar,
    reports,
    query,
    plant: async () => (await regions.tree({}))[0]?.name ?? null,
    mailer: createMailer(alarmNotify.smtp),
    retentionDays: () => system.sysConfigs.scheduleRunRetentionDays(),
    log: log.child({ module: 'report-schedules' }),
  });
  const tariffs = createTariffService({
    db,
    catalog,
    store,
    calendar,
    rawRetentionDays: config.telemetry.retention.rawDays,
    regions: () => regions.tree({ withThings: true }),
    plantTariffId: async () => (await system.sysConfigs.erpConfig()).tariffId ?? null,
    now,
  });
  const filterGroups = createFilterGroupService({ db, catalog, now });
  const statistics = createStatisticsService({
    catalog,
    query,
    filterGroups,
    calendar,
    now,
  });
  const statisticsConfigs = createStatisticsConfigs({ db, catalog, now });
  const board = createBoardService({ db, catalog, regions, now });
  const enpi = createEnpiService({ db, statistics, calendar, now });
  const dashboard = createDashboardService({
    db,
    catalog,
    roots: async () => regions.tree({}),
    presence: () => things.presenceAll(),
    activeAlarms: () => alarms.activeAlarms(),
    latest: (series) => store.latest(series),
    metricConfigs: (regionId) =>
      metricConfigs.configs({ resourceType: 'region', resourceId: regionId, categoryId: null }),
    plantTariffId: async () => (await system.sysConfigs.erpConfig()).tariffId ?? null,
    tariffs,
    data: (q) => query.data(q, null),
    now,
  });
  const diagrams = createDiagramsService({ db, catalog, now });
  const explore = createExploreService({ db, now });

  const readiness = createReadiness({
    database: { kind: deps.database.dialect, ping: () => ping(db) },
    telemetry: { kind: config.telemetry.url ? 'victoriametrics' : 'duckdb', ping: () => store.ping() },
    broker: () => mqtt.status(),
  });
  metrics.sources.alarmLag = () => alarmRunner.lag();
  if (store.memory) {
    const memory = store.memory.bind(store);
    metrics.sources.telemetryMemory = () =>
      memory().catch((error: unknown) => {
        // A scrape still answers while the store closes; the gauge is then left empty.
        log.warn({ err: error }, 'telemetry store memory not read for /metrics');
        return {};
      });
  }
  metrics.sources.notificationBacklog = () =>
    alarmNotify.notifier.backlog().catch((error: unknown) => {
      // A scrape still answers while the database is away; readiness names the database.
      log.warn({ err: error }, 'notification backlog not read for /metrics');
      return { pending: Number.NaN, oldestSeconds: Number.NaN };
    });

  return {
    calendar,
    things,
    regions,
    catalog,
    ingest,
    mqtt,
    auth,
    query,
    metricConfigs,
    users,
    system,
    alarms,
    alarmRunner,
    alarmNotify,
    reports,
    tariffs,
    filterGroups,
    statistics,
    statisticsConfigs,
    reportSchedules,
    board,
    enpi,
    dashboard,
    diagrams,
    explore,
    /** /metrics, readiness, and the wait for ingest calls under way at shutdown (modules/ops). */
    ops: { metrics, readiness, ingestSettled: counted.settled },
  };
}

export type Services = ReturnType<typeof buildServices>;
