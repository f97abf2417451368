import type { Generated } from 'kysely';

// ---- alarms (migration 0110; docs/alarms.md) -------------------------------------------------------

export interface AlarmsDB {
  alarm_templates: AlarmTemplatesTable;
  alarm_rules: AlarmRulesTable;
  alarm_monitors: AlarmMonitorsTable;
  alarm_history: AlarmHistoryTable;
  alarm_annunciations: AlarmAnnunciationsTable;
  alarm_actions: AlarmActionsTable;
  alarm_maintenance: AlarmMaintenanceTable;
  alarm_timers: AlarmTimersTable;
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

/** A watch's delay and chatter state (migration 2026-11-28-0200; docs/cluster.md). */
interface AlarmTimersTable {
  monitor_id: number;
  rule_id: number;
  thing_id: number;
  holding: number;
  change_since: string | null;
  last_at: string | null;
  /** JSON: a number or a string. */
  last_value: string | null;
  /** JSON array of epoch milliseconds. */
  raises: string;
  updated_at: string;
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

export interface AlarmsDB {
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

export interface AlarmsDB {
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
