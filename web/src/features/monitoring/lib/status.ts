import type { Cabinet } from '@kilowatch/contract';
import { isStatusMetric } from '../../../components/charts/series.ts';

/**
 * A device counts as online when its newest value is at most this old. The server knows each
 * device's interval ("online under 3 × its interval") but sends only `lastSeenAgo`; 5 minutes
 * is 3 × a 100 s interval and covers the usual 10–60 s reporters.
 */
const ONLINE_MAX_AGE_S = 300;

export const isOnline = (lastSeenAgo: number | null | undefined): boolean =>
  lastSeenAgo !== null && lastSeenAgo !== undefined && lastSeenAgo <= ONLINE_MAX_AGE_S;

export type RunState = 'running' | 'stopped' | 'unknown';

/**
 * The 运转状态 value as running/stopped: 1, true, '1', 'true', 'on', 'run…' and 运行 are running;
 * 0, false, 'off', 'stop…' and 停机 are stopped.
 */
export function runState(value: unknown): RunState {
  if (value === null || value === undefined || value === '') return 'unknown';
  if (typeof value === 'number') return value > 0 ? 'running' : 'stopped';
  if (typeof value === 'boolean') return value ? 'running' : 'stopped';
  const text = String(value).trim().toLowerCase();
  if (['1', 'true', 'on', '运行', 'running', 'run'].includes(text)) return 'running';
  if (['0', 'false', 'off', '停机', 'stopped', 'stop'].includes(text)) return 'stopped';
  return 'unknown';
}

/** The 运转状态 entry of a status list or attrMap, if any. */
export const statusEntry = <T extends { name: string }>(items: readonly T[]): T | undefined =>
  items.find((i) => isStatusMetric(i.name));

/** A cabinet's key latest values: numeric ones first, at most `limit`. */
export function keyValues(
  cabinet: Cabinet,
  limit = 6,
): { identifier: string; name: string; unit: string; value: unknown }[] {
  return Object.entries(cabinet.attrMap)
    .map(([identifier, v]) => ({ identifier, ...v }))
    .sort((a, b) => Number(typeof b.value === 'number') - Number(typeof a.value === 'number'))
    .slice(0, limit);
}
