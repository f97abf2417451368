import { createHmac } from 'node:crypto';
import type { NotifyEvent, Severity } from '@kilowatch/contract';

/** What a notification says about its alarm (read from alarm history when the event is queued). */
export interface AlarmFacts {
  id: number;
  ruleName: string;
  thingName: string;
  resourceType: 'thing' | 'region';
  resourceName: string;
  severity: Severity;
  /** The alarm's message as history keeps it (filled in at the raise). */
  message: string;
  value: string;
  alarmAt: number;
  returnedAt: number | null;
}

/** Who acknowledged, and what they wrote. */
export interface ActionFacts {
  username: string;
  comment: string;
  at: number;
}

/** The rendered notification, stored in the outbox and sent as it was when the event happened. */
export interface NotifyMessage {
  event: NotifyEvent;
  subject: string;
  text: string;
  /** The webhook's JSON body. */
  body: {
    event: NotifyEvent;
    alarm: {
      id: number;
      rule: string;
      thing: string;
      resourceType: 'thing' | 'region';
      resource: string;
      severity: Severity;
      value: string;
      message: string;
      alarmAt: string;
      returnedAt: string | null;
    };
    action: { username: string; comment: string; at: string } | null;
    link: string;
  };
}

const SEVERITY_ZH: Record<Severity, string> = {
  critical: '紧急',
  major: '重要',
  minor: '次要',
  warning: '提示',
};
const EVENT_ZH: Record<NotifyEvent, string> = {
  raise: '告警产生',
  acknowledge: '告警已确认',
  return: '告警恢复',
};
const RESOURCE_ZH = { region: '区域' } as const;

/** The console path that opens the alarm (spec §2: the bell's link). */
const alarmLink = (id: number) => `/alarm_center/alarm_history?id=${id}`;

/** `2026-11-22 16:00:00` in the plant's zone: what the plant's people read on their clocks. */
export function plantTime(ms: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(ms);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}:${get('second')}`;
}

/**
 * The notification of one alarm event, in the plant's default language (zh, the console's first):
 * a subject line, a plain text for e-mail, and a JSON body for webhooks.
 */
export function renderMessage(
  event: NotifyEvent,
  facts: AlarmFacts,
  action: ActionFacts | null,
  timeZone: string,
): NotifyMessage {
  const severity = SEVERITY_ZH[facts.severity];
  const link = alarmLink(facts.id);
  const { message } = facts;
  const lines = [
    `${EVENT_ZH[event]}：${facts.ruleName}`,
    `级别：${severity}`,
    `设备：${facts.thingName}`,
    // A monitor on a region names the region as well; one on the thing would repeat its name.
    ...(facts.resourceType === 'region' ? [`${RESOURCE_ZH.region}：${facts.resourceName}`] : []),
    `告警值：${facts.value}`,
    ...(message ? [`告警信息：${message}`] : []),
    `告警时间：${plantTime(facts.alarmAt, timeZone)}`,
    ...(facts.returnedAt !== null ? [`恢复时间：${plantTime(facts.returnedAt, timeZone)}`] : []),
    ...(action
      ? [
          `确认人：${action.username}`,
          `确认时间：${plantTime(action.at, timeZone)}`,
          ...(action.comment ? [`备注：${action.comment}`] : []),
        ]
      : []),
    `详情：${link}`,
  ];
  return {
    event,
    subject: `[${severity}] ${EVENT_ZH[event]}：${facts.thingName} ${facts.ruleName}`,
    text: lines.join('\n'),
    body: {
      event,
      alarm: {
        id: facts.id,
        rule: facts.ruleName,
        thing: facts.thingName,
        resourceType: facts.resourceType,
        resource: facts.resourceName,
        severity: facts.severity,
        value: facts.value,
        message,
        alarmAt: new Date(facts.alarmAt).toISOString(),
        returnedAt: facts.returnedAt === null ? null : new Date(facts.returnedAt).toISOString(),
      },
      action: action
        ? { username: action.username, comment: action.comment, at: new Date(action.at).toISOString() }
        : null,
      link,
    },
  };
}

/** What routing looks at in a route. */
export interface RouteFilter {
  enabled: boolean;
  severities: readonly Severity[];
  events: readonly NotifyEvent[];
}

/** A route takes an event when it is enabled and lists both the alarm's severity and the event. */
export const routeTakes = (route: RouteFilter, severity: Severity, event: NotifyEvent): boolean =>
  route.enabled && route.severities.includes(severity) && route.events.includes(event);

export interface Backoff {
  /** Wait after the first failure, ms. */
  baseMs: number;
  /** The longest wait, ms. */
  maxMs: number;
  /** Attempts in all before a notification is given up on. */
  maxAttempts: number;
}

/** 5 s, 10 s, 20 s … up to 15 min between tries; twelve tries span a little over an hour. */
export const DEFAULT_BACKOFF: Backoff = { baseMs: 5_000, maxMs: 15 * 60_000, maxAttempts: 12 };

/** When to try again after `attempts` failed tries, or null to give up. */
export function nextAttemptAt(attempts: number, now: number, backoff: Backoff): number | null {
  if (attempts >= backoff.maxAttempts) return null;
  const wait = Math.min(backoff.baseMs * 2 ** Math.max(0, attempts - 1), backoff.maxMs);
  return now + wait;
}

/** The webhook signature header's name; its value is `sha256=<hex HMAC of the raw body>`. */
export const SIGNATURE_HEADER = 'x-kilowatch-signature';

export const signature = (secret: string, body: string): string =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
