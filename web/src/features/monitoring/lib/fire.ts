import type { Cabinet, Category } from '@kilowatch/contract';
import { isOnline } from './status.ts';

/** Fire sensors (spec §2 fire): which category they are, and the state of each. */

export const FIRE_STATES = ['alarm', 'fault', 'offline', 'normal'] as const;
export type FireState = (typeof FIRE_STATES)[number];

export const FIRE_STATE_COLORS: Record<FireState, string> = {
  alarm: '#F56C6C',
  fault: '#E6A23C',
  offline: '#909399',
  normal: '#67C23A',
};

interface Named {
  identifier: string;
  name: string;
}

const SMOKE = /smoke|烟/i;
const TEMPERATURE = /temp|温度/i;
const STATE = /state|status|alarm|fault|状态|报警|告警|故障/i;
const FIRE_NAME = /消防|烟感|火灾|火警|fire|smoke/i;

const matches = (re: RegExp, a: Named) => re.test(a.identifier) || re.test(a.name);

/**
 * The fire category: one whose abilities include a smoke or state metric and whose name looks
 * like fire; else the first with a smoke metric; else the first named like fire; else null.
 */
export function detectFireCategory(
  categories: readonly Category[],
  abilitiesOf: (categoryId: number) => readonly Named[] | undefined,
): number | null {
  const smoky = categories.filter((c) => (abilitiesOf(c.id) ?? []).some((a) => matches(SMOKE, a)));
  const stated = categories.filter((c) => (abilitiesOf(c.id) ?? []).some((a) => matches(STATE, a)));
  return (
    smoky.find((c) => FIRE_NAME.test(c.name))?.id ??
    stated.find((c) => FIRE_NAME.test(c.name))?.id ??
    smoky[0]?.id ??
    categories.find((c) => FIRE_NAME.test(c.name))?.id ??
    null
  );
}

type AttrEntry = Cabinet['attrMap'][string] & { identifier: string };

const entries = (cabinet: Cabinet): AttrEntry[] =>
  Object.entries(cabinet.attrMap).map(([identifier, v]) => ({ identifier, ...v }));

export const smokeEntry = (cabinet: Cabinet) => entries(cabinet).find((e) => matches(SMOKE, e));
export const temperatureEntry = (cabinet: Cabinet) => entries(cabinet).find((e) => matches(TEMPERATURE, e));
const stateEntry = (cabinet: Cabinet) => entries(cabinet).find((e) => matches(STATE, e));

/**
 * A sensor's state: offline when not seen recently; otherwise its state value: 1/true or
 * alarm-like text (alarm, fire, 报警, 告警, 火警) is alarm, 2 or fault-like text (fault, error,
 * 故障) is fault, anything else normal.
 */
export function fireState(cabinet: Cabinet): FireState {
  if (!isOnline(cabinet.lastSeenAgo)) return 'offline';
  const value = stateEntry(cabinet)?.value;
  if (value === null || value === undefined) return 'normal';
  if (typeof value === 'number') return value === 1 ? 'alarm' : value === 2 ? 'fault' : 'normal';
  const text = String(value).toLowerCase();
  if (/alarm|fire|报警|告警|火警|^true$|^1$/.test(text)) return 'alarm';
  if (/fault|error|故障|^2$/.test(text)) return 'fault';
  return 'normal';
}

/** How many sensors are in each state. */
export function countStates(cabinets: readonly Cabinet[]): Record<FireState, number> {
  const counts: Record<FireState, number> = { alarm: 0, fault: 0, offline: 0, normal: 0 };
  for (const c of cabinets) counts[fireState(c)] += 1;
  return counts;
}
