import type { Generated } from 'kysely';

/**
 * Table types as stored. Timestamps are ISO-8601 UTC text and booleans integer 0/1 in both
 * dialects, so rows read the same on SQLite and PostgreSQL; repositories map them.
 */
export interface UsersTable {
  id: Generated<number>;
  username: string;
  password_hash: string;
  name: string;
  avatar: string;
  introduction: string;
  /** 1 = admin, above 1 = editor, NULL = may not log in (spec §4). */
  user_level: number | null;
  disabled: number;
  /** JSON object text. */
  setting: string;
  created_at: string;
  updated_at: string;
}

export interface RefreshTokensTable {
  /** The token's `jti`. */
  id: string;
  user_id: number;
  /** Every token rotated from one login shares a family, so a replayed one can revoke them all. */
  family: string;
  expires_at: string;
  revoked_at: string | null;
  /** The jti of the token issued when this one was rotated. */
  replaced_by: string | null;
  created_at: string;
}

export interface DB {
  users: UsersTable;
  refresh_tokens: RefreshTokensTable;
  thing_categories: ThingCategoriesTable;
  thing_category_abilities: ThingCategoryAbilitiesTable;
  thing_models: ThingModelsTable;
  thing_model_abilities: ThingModelAbilitiesTable;
  things: ThingsTable;
  thing_ability_removals: ThingAbilityRemovalsTable;
  units: UnitsTable;
  regions: RegionsTable;
  region_things: RegionThingsTable;
  groups: GroupsTable;
  user_groups: UserGroupsTable;
  resources: ResourcesTable;
  roles: RolesTable;
  role_resources: RoleResourcesTable;
  user_roles: UserRolesTable;
  sys_configs: SysConfigsTable;
  videos: VideosTable;
  login_failures: LoginFailuresTable;
  stream_tickets: StreamTicketsTable;
  server_secrets: ServerSecretsTable;
}

export interface ThingCategoriesTable {
  id: Generated<number>;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
}

export interface ThingCategoryAbilitiesTable {
  id: Generated<number>;
  category_id: number;
  identifier: string;
  name: string;
  unit: string;
  /** number | boolean | enum | string */
  data_type: string;
  aggregator: string;
  /** 1 = cumulative counter, 0 = instantaneous value. */
  cumulative: number;
  /** JSON array text of { value, label }. */
  enum_options: string;
  sort: number;
  created_at: string;
  updated_at: string;
}

export interface ThingModelsTable {
  id: Generated<number>;
  category_id: number;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
}

/** A model's override of one category ability; NULL columns inherit the category's value. */
interface ThingModelAbilitiesTable {
  model_id: number;
  ability_id: number;
  name: string | null;
  unit: string | null;
  aggregator: string | null;
  cumulative: number | null;
  sort: number | null;
  updated_at: string;
}

interface ThingsTable {
  id: Generated<number>;
  identifier: string;
  name: string;
  description: string;
  model_id: number;
  /** JSON object text: { attributes: [{ identifier, name, value }] }. */
  setting: string;
  access_token: string;
  created_at: string;
  updated_at: string;
}

interface ThingAbilityRemovalsTable {
  thing_id: number;
  ability_id: number;
  created_at: string;
}

interface UnitsTable {
  id: Generated<number>;
  symbol: string;
  name: string;
  quantity: string;
  sort: number;
}

// ---- regions and system management (migration 0003) -----------------------------------------------

interface RegionsTable {
  id: Generated<number>;
  parent_id: number | null;
  name: string;
  description: string;
  sort: number;
  created_at: string;
  updated_at: string;
}

interface RegionThingsTable {
  region_id: number;
  thing_id: number;
  created_at: string;
}

interface GroupsTable {
  id: Generated<number>;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
}

interface UserGroupsTable {
  user_id: number;
  group_id: number;
}

/** A console route (contract LAYOUT_ROUTES), upserted at every start. */
interface ResourcesTable {
  id: Generated<number>;
  path: string;
  name: string;
  title_key: string;
  parent_path: string | null;
  admin_only: number;
  sort: number;
}

interface RolesTable {
  id: Generated<number>;
  code: string;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
}

interface RoleResourcesTable {
  role_id: number;
  resource_path: string;
}

interface UserRolesTable {
  user_id: number;
  role_id: number;
}

export interface SysConfigsTable {
  id: Generated<number>;
  identifier: string;
  name: string;
  /** JSON text for structured settings such as systemSetting. */
  value: string;
  description: string;
  created_at: string;
  updated_at: string;
}

interface VideosTable {
  id: Generated<number>;
  name: string;
  stream_url: string;
  region_id: number | null;
  thing_id: number | null;
  created_at: string;
  updated_at: string;
  /** Migration 0420: how the console plays it, the gateway's address, the recording. */
  protocol: Generated<string>;
  play_url: string | null;
  recording_kind: Generated<string>;
  recording_url: string | null;
}

// ---- metric configs (migration 0004) --------------------------------------------------------------

export interface DB {
  metric_configs: MetricConfigsTable;
}

export interface MetricConfigsTable {
  id: Generated<number>;
  /** thing | region */
  resource_type: string;
  resource_id: number;
  /** 0 = no category. */
  category_id: number;
  metric_identifier: string;
  metric_name: string;
  name: string;
  enabled: number;
  unit: string;
  aggregator: string;
  function: string;
  color: string;
  sort: number;
  created_at: string;
  updated_at: string;
}

interface LoginFailuresTable {
  /** `s|<source>` (every name from one client address) or `u|<source>|<lower-case username>`. */
  key: string;
  failures: number;
  last_failure_at: string;
  /** The failure before the last, so an attempt counted up front can be taken back on success. */
  previous_failure_at: string | null;
  /** When the count is forgotten: a fixed time after the last failure, per kind of key. */
  forget_at: string;
}

// ---- alarms (migration 0110; docs/alarms.md) -------------------------------------------------------

export interface DB {
  alarm_templates: AlarmTemplatesTable;
  alarm_rules: AlarmRulesTable;
  alarm_monitors: AlarmMonitorsTable;
  alarm_history: AlarmHistoryTable;
  alarm_annunciations: AlarmAnnunciationsTable;
  alarm_actions: AlarmActionsTable;
  alarm_maintenance: AlarmMaintenanceTable;
}

interface AlarmTemplatesTable {
  id: Generated<number>;
  name: string;
  category_id: number;
  description: string;
  created_at: string;
  updated_at: string;
}

interface AlarmRulesTable {
  id: Generated<number>;
  name: string;
  /** The template the rule belongs to, or NULL for a free rule. */
  template_id: number | null;
  /** The category whose ability it watches (a template's rules share the template's). */
  category_id: number | null;
  ability: string;
  /** The contract's AlarmCondition, JSON text. */
  condition: string;
  on_delay: number;
  off_delay: number;
  deadband: number;
  severity: string;
  message: string;
  enabled: number;
  created_at: string;
  updated_at: string;
}

interface AlarmMonitorsTable {
  id: Generated<number>;
  /** rule | template */
  applied_type: string;
  applied_id: number;
  /** thing | region */
  target_type: string;
  target_id: number;
  created_at: string;
}

interface AlarmHistoryTable {
  id: Generated<number>;
  monitor_id: number;
  rule_id: number;
  rule_name: string;
  template_name: string;
  thing_id: number;
  thing_name: string;
  /** thing | region: what the monitor was applied to (the spec's 设备 / 区域). */
  resource_type: string;
  resource_id: number;
  resource_name: string;
  severity: string;
  message: string;
  /** The value at the raise, as text (numbers and states alike). */
  value: string;
  alarm_at: string;
  returned_at: string | null;
  active: number;
  acknowledged: number;
  closed: number;
  shelved_until: string | null;
  suppressed: number;
  chattering: number;
  occurrences: number;
  updated_at: string;
}

/** Each time an alarm became active and unacknowledged: its raise and every re-raise. */
interface AlarmAnnunciationsTable {
  id: Generated<number>;
  history_id: number;
  rule_id: number;
  thing_id: number;
  at: string;
  suppressed: number;
}

interface AlarmActionsTable {
  id: Generated<number>;
  history_id: number;
  action: string;
  user_id: number | null;
  username: string;
  comment: string;
  until: string | null;
  at: string;
}

interface AlarmMaintenanceTable {
  id: Generated<number>;
  target_type: string;
  target_id: number;
  starts_at: string;
  ends_at: string;
  reason: string;
  created_at: string;
  /** Who planned it (migration 0220); '' for windows planned before. */
  created_by: string;
}

// ---- alarm notifications (migration 0120; docs/alarms.md "Notifications") -------------------------

export interface DB {
  alarm_notify_smtp: AlarmNotifySmtpTable;
  alarm_notify_routes: AlarmNotifyRoutesTable;
  alarm_notify_outbox: AlarmNotifyOutboxTable;
}

interface AlarmNotifySmtpTable {
  /** Always 1: one SMTP server. */
  id: number;
  host: string;
  port: number;
  /** tls | starttls | none */
  security: string;
  username: string;
  password: string;
  sender: string;
  updated_at: string;
}

interface AlarmNotifyRoutesTable {
  id: Generated<number>;
  name: string;
  /** webhook | email */
  channel: string;
  /** JSON array of severities. */
  severities: string;
  /** JSON array of raise | acknowledge | return. */
  events: string;
  url: string;
  /** HMAC-SHA256 key for the webhook's signature header; '' for none. */
  secret: string;
  timeout_ms: number;
  /** JSON array of e-mail addresses. */
  recipients: string;
  enabled: number;
  created_at: string;
  updated_at: string;
}

interface AlarmNotifyOutboxTable {
  id: Generated<number>;
  route_id: number;
  alarm_id: number;
  event: string;
  /** The rendered message (notify/message.ts), JSON. */
  payload: string;
  /** pending | sent | failed */
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  last_error: string;
  created_at: string;
  sent_at: string | null;
}

// ---- alarms out of service (migration 0270; docs/alarms.md "Out of service") ---------------------

export interface DB {
  alarm_out_of_service: AlarmOutOfServiceTable;
}

interface AlarmOutOfServiceTable {
  id: Generated<number>;
  /** A rule on one thing (both set), or a whole monitor (monitor_id set). */
  rule_id: number | null;
  thing_id: number | null;
  monitor_id: number | null;
  /** What was taken out of service, named when it was ("rule · thing" or "applied → target"). */
  name: string;
  reason: string;
  user_id: number | null;
  username: string;
  created_at: string;
}

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

/**
 * A component grid's columns besides its owner's (modules/component-grid): the KPI reports' and the
 * board pages' tables have these, and each its owner's id.
 */
export interface ComponentGridColumns {
  id: Generated<number>;
  title: string;
  chart_type: string;
  /** JSON: ComponentYoy. */
  yoy: string;
  /** JSON: ComponentParams. */
  params: string;
  /** JSON array: ComponentMetric. */
  metrics: string;
  x: number;
  y: number;
  w: number;
  h: number;
  created_at: string;
  updated_at: string;
}

interface ReportComponentsTable extends ComponentGridColumns {
  report_id: number;
}

export interface DB {
  reports: ReportsTable;
  report_components: ReportComponentsTable;
}

// ---- tariffs (migration 0240; docs/tariffs.md) ----------------------------------------------------

export interface DB {
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

export interface DB {
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

// ---- workshop data board (migration 0360; docs/board.md) ----------------------------------------

interface BoardPagesTable {
  id: Generated<number>;
  name: string;
  region_id: number;
  /** 1: the region's sub-regions count too. */
  successor: number;
  category_id: number | null;
  interval_s: number;
  weight: number;
  enabled: number;
  created_at: string;
  updated_at: string;
}

interface BoardComponentsTable extends ComponentGridColumns {
  page_id: number;
}

export interface DB {
  board_pages: BoardPagesTable;
  board_components: BoardComponentsTable;
}

// ---- EnPI and baselines (issue 12, docs/enpi.md) ----

export interface DB {
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

export interface DB {
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

// ---- situation overview (issue 13) ----

export interface DB {
  dashboard_map_image: DashboardMapImageTable;
  dashboard_placements: DashboardPlacementsTable;
}

interface DashboardMapImageTable {
  /** Always 1: the plant has one layout image. */
  id: number;
  /** image/png | image/jpeg */
  type: string;
  bytes: Uint8Array;
  width: number;
  height: number;
  size: number;
  version: string;
  updated_by: string;
  updated_at: string;
}

interface DashboardPlacementsTable {
  id: Generated<number>;
  /** One of thing_id and region_id is set. */
  thing_id: number | null;
  region_id: number | null;
  x: number;
  y: number;
  updated_at: string;
}
// ---- single-line diagrams (migration 0410; docs/electric-diagram.md) -----------------------------

export interface DB {
  diagrams: DiagramsTable;
}

export interface DiagramsTable {
  id: Generated<number>;
  name: string;
  /** JSON: DiagramGraph (contract/src/diagrams.ts). */
  graph: string;
  created_at: string;
  updated_at: string;
}

// ---- saved Explore views (migration 0560; docs/explore.md) ----------------------------------------

export interface DB {
  explore_views: ExploreViewsTable;
}

export interface ExploreViewsTable {
  id: Generated<number>;
  owner_id: number;
  name: string;
  /** JSON: ExploreState (contract/src/explore.ts). */
  state: string;
  created_at: string;
  updated_at: string;
}

interface StreamTicketsTable {
  /** SHA-256 (hex) of the ticket: the ticket itself is only ever in the URL that redeems it. */
  ticket_hash: string;
  access_token: string;
  expires_at: string;
}

interface ServerSecretsTable {
  /** 'jwt' */
  name: string;
  value: string;
}
