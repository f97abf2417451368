import { ALARM_STATE, type AlarmHistoryQuery, SEVERITIES, type Severity } from '@kilowatch/contract';

/** Spec §9: the list opens on page 1 with 10 rows. */
export const HISTORY_PAGE_SIZE = 10;

const positive = (value: string | null): number | undefined => {
  const n = Number(value);
  return value !== null && Number.isInteger(n) && n > 0 ? n : undefined;
};

const STATES = new Set<number>(Object.values(ALARM_STATE));

/**
 * The list's filters as kept in the address (a reload or a shared link keeps them). `id` is not
 * among them: `?id=` opens that alarm's detail (the bell's links); the id filter is `alarmId`.
 */
export function historyQueryOf(
  search: URLSearchParams,
): AlarmHistoryQuery & { page: number; pageSize: number } {
  const state = positive(search.get('state'));
  const severity = search.get('severity');
  const text = (key: string) => search.get(key)?.trim() || undefined;
  return {
    page: positive(search.get('page')) ?? 1,
    pageSize: positive(search.get('pageSize')) ?? HISTORY_PAGE_SIZE,
    name: text('name'),
    templateName: text('templateName'),
    id: positive(search.get('alarmId')),
    ruleId: positive(search.get('ruleId')),
    state: state !== undefined && STATES.has(state) ? state : undefined,
    severity: SEVERITIES.includes(severity as Severity) ? (severity as Severity) : undefined,
    start: positive(search.get('start')),
    end: positive(search.get('end')),
    thingId: positive(search.get('thingId')),
  };
}
