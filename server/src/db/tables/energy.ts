import type { Generated } from 'kysely';
import type { ComponentGridColumns } from './screens.ts';

// ---- KPI reports (docs/reports.md) ----------------------------------------------------------------

export interface ReportsTable {
  id: Generated<number>;
  /** NULL: the top level. */
  parent_id: number | null;
  name: string;
  /** 1 = folder, 0 = report. */
  folder: number;
  sort: number;
  published_at: string | null;
  published_by: number | null;
  created_at: string;
  updated_at: string;
}

interface ReportComponentsTable extends ComponentGridColumns {
  report_id: number;
}

export interface EnergyDB {
  reports: ReportsTable;
  report_components: ReportComponentsTable;
}

// ---- tariffs (migration 0240; docs/tariffs.md) ----------------------------------------------------

export interface EnergyDB {
  tariffs: TariffsTable;
  tariff_versions: TariffVersionsTable;
  region_tariffs: RegionTariffsTable;
}

/** A region's own tariff (migration 2010). */
interface RegionTariffsTable {
  region_id: number;
  tariff_id: number;
  created_at: string;
}

export interface TariffsTable {
  id: Generated<number>;
  name: string;
  description: string;
  /** JSON array of local dates. */
  holidays: string;
  /** JSON array of local dates (weekend days worked). */
  workdays: string;
  /** JSON array of ISO weekdays. */
  weekend_days: string;
  created_at: string;
  updated_at: string;
}

export interface TariffVersionsTable {
  id: Generated<number>;
  tariff_id: number;
  /** Local date YYYY-MM-DD of the plant's zone. */
  valid_from: string;
  /** JSON: prices, seasons, demand, powerFactorTarget, note. */
  body: string;
  created_at: string;
}

// ---- statistics (issue 12) ----

export interface EnergyDB {
  statistics_configs: StatisticsConfigsTable;
  filter_groups: FilterGroupsTable;
  filters: FiltersTable;
}

interface StatisticsConfigsTable {
  id: Generated<number>;
  /** The user's id, or 0 for the plant's config. */
  owner: number;
  /** JSON { items, circle }. */
  value: string;
  updated_at: string;
}

interface FilterGroupsTable {
  id: Generated<number>;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
}

interface FiltersTable {
  id: Generated<number>;
  group_id: number;
  name: string;
  /** thing | region */
  resource_type: string;
  resource_id: number;
  sort: number;
}

// ---- EnPI and baselines (issue 12, docs/enpi.md) ----

export interface EnergyDB {
  enpis: EnpisTable;
  enpi_outputs: EnpiOutputsTable;
}

export interface EnpisTable {
  id: Generated<number>;
  name: string;
  description: string;
  /** JSON: energy, output, outputUnit, temperature, period, baselineStart, baselineEnd, variables. */
  body: string;
  created_at: string;
  updated_at: string;
}

interface EnpiOutputsTable {
  enpi_id: number;
  /** First local day of the period, YYYY-MM-DD. */
  period: string;
  value: number;
  updated_at: string;
}

// ---- scheduled reports (migration 0390; docs/report-schedules.md) ---------------------------------

export interface EnergyDB {
  report_schedules: ReportSchedulesTable;
  report_schedule_runs: ReportScheduleRunsTable;
}

interface ReportSchedulesTable {
  id: Generated<number>;
  report_id: number;
  /** daily | weekly | monthly */
  frequency: string;
  /** ISO weekday 1–7 (weekly). */
  weekday: number;
  /** 1–31 (monthly; a short month runs on its last day). */
  month_day: number;
  /** HH:mm in the plant's zone. */
  time: string;
  /** JSON array of e-mail addresses. */
  recipients: string;
  language: string;
  enabled: number;
  /** ISO instant of the next due run; null while disabled. */
  next_run_at: string | null;
  /** ISO instant until which one server process holds the due run. */
  lease_until: string | null;
  created_at: string;
  updated_at: string;
}

interface ReportScheduleRunsTable {
  id: Generated<number>;
  schedule_id: number;
  /** schedule | manual */
  trigger: string;
  started_at: string;
  finished_at: string | null;
  period_start: string;
  period_end: string;
  /** running | sent | failed */
  status: string;
  error_code: string | null;
  error: string;
  /** JSON array: the addresses this run mailed. */
  recipients: string;
}
