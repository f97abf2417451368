import { ONLINE_WINDOW_MS, type Placement, type Severity } from '@kilowatch/contract';
import type { LatestValues } from '../../../api/live.ts';

/**
 * A marker's look from the server's last answer and the live values since: the live channel
 * makes a device online (and running or stopped) the moment it speaks, the poll catches up on
 * alarms and on devices that fell silent.
 */
export interface MarkerState {
  presence: Placement['presence'];
  /** From a status metric (1 running, 0 stopped); null when the thing has none. */
  running: boolean | null;
  alarm: { severity: Severity; flashing: boolean } | null;
  /** The latest power (the plant's power metric) shown beside a device, when it sends one. */
  power: number | null;
}

/** Status metrics a device may send (the demo compressor's `status`, a contactor's `RUN`). */
const STATUS_METRICS = ['status', 'RUN'];

export function markerState(
  p: Placement,
  live: LatestValues,
  now: number,
  powerMetric: string | null,
): MarkerState {
  const alarm = p.alarm && { severity: p.alarm.severity, flashing: p.alarm.unacknowledged };
  if (p.resourceType === 'region') return { presence: p.presence, running: null, alarm, power: null };
  const values = live.get(p.resourceId);
  let newest = 0;
  for (const v of values?.values() ?? []) newest = Math.max(newest, v.ts);
  const presence = newest > 0 && now - newest <= ONLINE_WINDOW_MS ? 'online' : p.presence;
  const status = STATUS_METRICS.map((m) => values?.get(m)).find((v) => v !== undefined);
  const running = status === undefined ? null : Number(status.value) === 1;
  const power = powerMetric === null ? undefined : values?.get(powerMetric)?.value;
  return { presence, running, alarm, power: typeof power === 'number' ? power : null };
}

/** Severity colours of the alarm centre (critical red … warning blue). */
export const SEVERITY_COLORS: Record<Severity, string> = {
  critical: '#ff4d4f',
  major: '#fa8c16',
  minor: '#fadb14',
  warning: '#40a9ff',
};

/** The marker's fill: alarm first, then running/stopped, then presence. */
export function markerColor(s: MarkerState): string {
  if (s.alarm) return SEVERITY_COLORS[s.alarm.severity];
  if (s.presence !== 'online') return s.presence === 'offline' ? '#8c8c8c' : '#595959';
  if (s.running === false) return '#1677ff';
  return '#52c41a';
}

/** A point of the map in fractions of the image, clamped to it. */
export function toFraction(clientX: number, clientY: number, box: DOMRect): { x: number; y: number } {
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  return {
    x: clamp((clientX - box.left) / box.width),
    y: clamp((clientY - box.top) / box.height),
  };
}

/** The page's scale from the viewport: 1 at 1920×1080, 2 at 3840×2160, whichever side is tighter. */
export const viewportScale = (width: number, height: number): number =>
  Math.max(0.5, Math.min(width / 1920, height / 1080));
