import { type Static, Type } from 'typebox';
import { SEVERITIES } from './alarm-rules.ts';
import { IdParams, Ok, Page, PageQuery } from './common.ts';
import { endpoint } from './endpoint.ts';

/**
 * Alarm notifications (issue 11): routes send the raise, acknowledgement and return of alarms of
 * chosen severities to a webhook or to e-mail recipients, through an outbox that retries with
 * backoff. Secrets (the SMTP password, a webhook's signing secret) are write-only: reads say whether
 * one is set, never what it is.
 */

export const NOTIFY_EVENTS = ['raise', 'acknowledge', 'return'] as const;
export type NotifyEvent = (typeof NOTIFY_EVENTS)[number];

export const NOTIFY_CHANNELS = ['webhook', 'email'] as const;
export type NotifyChannel = (typeof NOTIFY_CHANNELS)[number];

/** `tls`: TLS from the first byte (port 465); `starttls`: upgrade required (587); `none`: plain. */
export const SMTP_SECURITY = ['tls', 'starttls', 'none'] as const;

const Host = Type.String({ maxLength: 253 });
const Address = Type.String({ maxLength: 254, pattern: '^[^\\s@]+@[^\\s@]+$' });

/** The SMTP server e-mail routes send through. An empty host means e-mail is not configured. */
export const SmtpSettings = Type.Object({
  host: Host,
  port: Type.Integer({ minimum: 1, maximum: 65_535 }),
  security: Type.Enum(SMTP_SECURITY),
  username: Type.String({ maxLength: 254 }),
  passwordSet: Type.Boolean(),
  from: Type.Union([Address, Type.Literal('')]),
});
export type SmtpSettings = Static<typeof SmtpSettings>;

/** `password` left out keeps the stored one; an empty string clears it. */
export const SmtpSettingsInput = Type.Object({
  host: Host,
  port: Type.Integer({ minimum: 1, maximum: 65_535 }),
  security: Type.Enum(SMTP_SECURITY),
  username: Type.String({ maxLength: 254 }),
  password: Type.Optional(Type.String({ maxLength: 512 })),
  from: Type.Union([Address, Type.Literal('')]),
});
export type SmtpSettingsInput = Static<typeof SmtpSettingsInput>;

const Severities = Type.Array(Type.Enum(SEVERITIES), { minItems: 1, maxItems: 4, uniqueItems: true });
const Events = Type.Array(Type.Enum(NOTIFY_EVENTS), { minItems: 1, maxItems: 3, uniqueItems: true });
/** Milliseconds a webhook may take to answer. */
const Timeout = Type.Integer({ minimum: 500, maximum: 60_000 });
const WebhookUrl = Type.String({ minLength: 1, maxLength: 2048, pattern: '^https?://' });

/** One route: which alarms (severities × events) go where. */
export const NotifyRoute = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  channel: Type.Enum(NOTIFY_CHANNELS),
  severities: Type.Array(Type.Enum(SEVERITIES)),
  events: Type.Array(Type.Enum(NOTIFY_EVENTS)),
  /** webhook: the URL posted to ('' for e-mail). */
  url: Type.String(),
  /** webhook: whether an HMAC-SHA256 signing secret is set. */
  secretSet: Type.Boolean(),
  timeoutMs: Type.Integer(),
  /** email: the addresses mailed ([] for a webhook). */
  recipients: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export type NotifyRoute = Static<typeof NotifyRoute>;

/**
 * A webhook route needs `url`, an e-mail route `recipients` (the server says which is missing).
 * `secret` left out keeps the stored one on a change; an empty string clears it.
 */
export const NotifyRouteInput = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 64 }),
  channel: Type.Enum(NOTIFY_CHANNELS),
  severities: Severities,
  events: Events,
  url: Type.Optional(Type.Union([WebhookUrl, Type.Literal('')])),
  secret: Type.Optional(Type.String({ maxLength: 256 })),
  timeoutMs: Type.Optional(Timeout),
  recipients: Type.Optional(Type.Array(Address, { maxItems: 50 })),
  enabled: Type.Boolean(),
});
export type NotifyRouteInput = Static<typeof NotifyRouteInput>;

export const NotifyTestResult = Type.Object({
  ok: Type.Boolean(),
  /** Why it failed (the receiver's status, the SMTP server's answer, a timeout), or null. */
  error: Type.Union([Type.String(), Type.Null()]),
});
export type NotifyTestResult = Static<typeof NotifyTestResult>;

export const OUTBOX_STATUSES = ['pending', 'sent', 'failed'] as const;

/** One notification in the outbox: pending (with its next try), sent, or given up on. */
export const NotifyOutboxItem = Type.Object({
  id: Type.Integer(),
  routeId: Type.Integer(),
  alarmId: Type.Integer(),
  event: Type.Enum(NOTIFY_EVENTS),
  status: Type.Enum(OUTBOX_STATUSES),
  attempts: Type.Integer(),
  nextAttemptAt: Type.Union([Type.String(), Type.Null()]),
  lastError: Type.String(),
  createdAt: Type.String(),
  sentAt: Type.Union([Type.String(), Type.Null()]),
});
export type NotifyOutboxItem = Static<typeof NotifyOutboxItem>;

export const NotifyOutboxQuery = Type.Object({
  ...PageQuery.properties,
  status: Type.Optional(Type.Enum(OUTBOX_STATUSES)),
});
export type NotifyOutboxQuery = Static<typeof NotifyOutboxQuery>;

const tags = ['alarms'];

export const alarmNotifySmtpGet = endpoint({
  method: 'GET',
  path: '/api/alarm/notify/smtp',
  response: SmtpSettings,
  tags,
  summary: 'The SMTP server for e-mail notifications (the password only as set / not set)',
});

export const alarmNotifySmtpUpdate = endpoint({
  method: 'PUT',
  path: '/api/alarm/notify/smtp',
  body: SmtpSettingsInput,
  response: SmtpSettings,
  tags,
  summary: 'Change the SMTP server; a password left out is kept, an empty one cleared',
});

export const alarmNotifyRouteList = endpoint({
  method: 'GET',
  path: '/api/alarm/notify/routes',
  response: Type.Array(NotifyRoute),
  tags,
  summary: 'Notification routes (webhook secrets only as set / not set)',
});

export const alarmNotifyRouteCreate = endpoint({
  method: 'POST',
  path: '/api/alarm/notify/routes',
  body: NotifyRouteInput,
  response: NotifyRoute,
  tags,
  summary: 'Add a route: severities and events to a webhook or to e-mail recipients',
});

export const alarmNotifyRouteUpdate = endpoint({
  method: 'PUT',
  path: '/api/alarm/notify/routes/:id',
  params: IdParams,
  body: NotifyRouteInput,
  response: NotifyRoute,
  tags,
  summary: 'Change a route; a webhook secret left out is kept, an empty one cleared',
});

export const alarmNotifyRouteDelete = endpoint({
  method: 'DELETE',
  path: '/api/alarm/notify/routes/:id',
  params: IdParams,
  response: Ok,
  tags,
  summary: 'Remove a route (its pending notifications are dropped)',
});

export const alarmNotifyRouteTest = endpoint({
  method: 'POST',
  path: '/api/alarm/notify/routes/:id/test',
  params: IdParams,
  response: NotifyTestResult,
  tags,
  summary: 'Send a test notification through a route now (not through the outbox) and say how it went',
});

export const alarmNotifyOutboxList = endpoint({
  method: 'GET',
  path: '/api/alarm/notify/outbox',
  querystring: NotifyOutboxQuery,
  response: Page(NotifyOutboxItem),
  tags,
  summary: 'Notifications pending, sent and given up on, newest first',
});

/** Where the SMTP settings' test e-mail goes. */
export const SmtpTestBody = Type.Object({ to: Address });
export type SmtpTestBody = Static<typeof SmtpTestBody>;

export const alarmNotifySmtpTest = endpoint({
  method: 'POST',
  path: '/api/alarm/notify/smtp/test',
  body: SmtpTestBody,
  response: NotifyTestResult,
  tags,
  summary: 'Send a test e-mail through the saved SMTP server now and say how it went (the server’s reason)',
});
