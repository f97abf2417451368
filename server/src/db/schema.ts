/**
 * The database's table types, one file per part of the plant under tables/ (core: accounts,
 * things, regions, system; alarms; energy; screens). Timestamps are ISO-8601 UTC text and booleans
 * integer 0/1 in both dialects, so rows read the same on SQLite and PostgreSQL; repositories map them.
 */
import type { AlarmsDB } from './tables/alarms.ts';
import type { CoreDB } from './tables/core.ts';
import type { EnergyDB } from './tables/energy.ts';
import type { ScreensDB } from './tables/screens.ts';

export type {
  MetricConfigsTable,
  RefreshTokensTable,
  SysConfigsTable,
  ThingCategoriesTable,
  ThingCategoryAbilitiesTable,
  ThingModelsTable,
  UsersTable,
} from './tables/core.ts';
export type { EnpisTable, ReportsTable, TariffsTable, TariffVersionsTable } from './tables/energy.ts';
export type { ComponentGridColumns, DiagramsTable, ExploreViewsTable } from './tables/screens.ts';

export interface DB extends CoreDB, AlarmsDB, EnergyDB, ScreensDB {}
