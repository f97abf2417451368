import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../dialect.ts';
import * as usersAuth from './2026-11-22-0001-users-auth.ts';
import * as things from './2026-11-22-0002-things.ts';
import * as regionsSystem from './2026-11-22-0003-regions-system.ts';
import * as queryConfigs from './2026-11-22-0004-query-configs.ts';
import * as loginFailures from './2026-11-23-0040-login-failures.ts';
import * as openSessions from './2026-11-23-0041-open-sessions.ts';
import * as alarms from './2026-11-23-0110-alarms.ts';
import * as alarmNotify from './2026-11-23-0120-alarm-notify.ts';
import * as maintenanceCreatedBy from './2026-11-24-0220-maintenance-created-by.ts';
import * as tariffs from './2026-11-24-0240-tariffs.ts';
import * as statistics from './2026-11-24-0250-statistics.ts';
import * as reports from './2026-11-24-0260-reports.ts';
import * as alarmOutOfService from './2026-11-24-0270-alarm-out-of-service.ts';
import * as enpi from './2026-11-24-0320-enpi.ts';
import * as board from './2026-11-24-0360-board.ts';
import * as reportSchedules from './2026-11-24-0390-report-schedules.ts';
import * as dashboard from './2026-11-24-0400-dashboard.ts';
import * as diagrams from './2026-11-24-0410-diagrams.ts';
import * as videoPlayback from './2026-11-24-0420-video-playback.ts';
import * as tariffDemandWindow from './2026-11-27-0500-tariff-demand-window.ts';
import * as alarmAnnunciations from './2026-11-27-0510-alarm-annunciations.ts';
import * as exploreViews from './2026-11-27-0560-explore-views.ts';
import * as regionTariffs from './2026-11-27-2010-region-tariffs.ts';
import * as replicas from './2026-11-27-2300-replicas.ts';
import * as alarmTimers from './2026-11-28-0200-alarm-timers.ts';

interface DialectMigration {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against no schema type
  up(db: Kysely<any>, dialect: Dialect): Promise<void>;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  down?(db: Kysely<any>, dialect: Dialect): Promise<void>;
}

/** Listed here rather than scanned from disk, so a bundled or relocated server finds them all. */
const MIGRATIONS: Record<string, DialectMigration> = {
  '2026-11-22-0001-users-auth': usersAuth,
  '2026-11-22-0002-things': things,
  '2026-11-22-0003-regions-system': regionsSystem,
  '2026-11-22-0004-query-configs': queryConfigs,
  '2026-11-23-0040-login-failures': loginFailures,
  '2026-11-23-0041-open-sessions': openSessions,
  '2026-11-23-0110-alarms': alarms,
  '2026-11-23-0120-alarm-notify': alarmNotify,
  '2026-11-24-0220-maintenance-created-by': maintenanceCreatedBy,
  '2026-11-24-0240-tariffs': tariffs,
  '2026-11-24-0250-statistics': statistics,
  '2026-11-24-0260-reports': reports,
  '2026-11-24-0270-alarm-out-of-service': alarmOutOfService,
  '2026-11-24-0360-board': board,
  '2026-11-24-0320-enpi': enpi,
  '2026-11-24-0390-report-schedules': reportSchedules,
  '2026-11-24-0400-dashboard': dashboard,
  '2026-11-24-0410-diagrams': diagrams,
  '2026-11-24-0420-video-playback': videoPlayback,
  '2026-11-27-0500-tariff-demand-window': tariffDemandWindow,
  '2026-11-27-0510-alarm-annunciations': alarmAnnunciations,
  '2026-11-27-0560-explore-views': exploreViews,
  '2026-11-27-2010-region-tariffs': regionTariffs,
  '2026-11-27-2300-replicas': replicas,
  '2026-11-28-0200-alarm-timers': alarmTimers,
};

/** The migrations with the dialect bound, as Kysely's Migrator expects them. */
export const migrationsFor = (dialect: Dialect): Record<string, Migration> =>
  Object.fromEntries(
    Object.entries(MIGRATIONS).map(([name, m]) => {
      const { down } = m;
      return [name, { up: (db) => m.up(db, dialect), ...(down ? { down: (db) => down(db, dialect) } : {}) }];
    }),
  );
