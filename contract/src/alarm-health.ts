import { type Static, Type } from 'typebox';
import { EpochMs, tags } from './alarm-fields.ts';
import { SEVERITIES } from './alarm-rules.ts';
import { endpoint } from './endpoint.ts';

// ---- alarm system health (EEMUA 191) -------------------------------------------------------------

/** EEMUA 191 counts alarms per operator per 10 minutes. */
export const HEALTH_PERIOD_MS = 600_000;
/** More than this many alarms within 10 minutes is a flood. */
export const FLOOD_ALARMS = 10;
/** An alarm active longer than this is standing. */
export const STANDING_MS = 86_400_000;
/** The bad actors listed. */
export const BAD_ACTORS_TOP = 10;
/** The longest range one health report covers (4,464 ten-minute periods). */
export const HEALTH_MAX_RANGE_MS = 31 * 86_400_000;
/** Standing and chattering alarms listed (the counts say how many there are in all). */
export const HEALTH_LIST_MAX = 100;

/**
 * EEMUA 191's judgement of the average alarm rate per 10 minutes: up to 1 very likely acceptable,
 * up to 2 manageable, up to 5 likely over-demanding, above that very likely unacceptable.
 */
export const ALARM_RATE_BANDS = ['acceptable', 'manageable', 'overDemanding', 'unacceptable'] as const;
export type AlarmRateBand = (typeof ALARM_RATE_BANDS)[number];
/** The highest average of each band but the last. */
export const ALARM_RATE_LIMITS = [1, 2, 5] as const;

export function rateBand(average: number): AlarmRateBand {
  const i = ALARM_RATE_LIMITS.findIndex((limit) => average <= limit);
  return ALARM_RATE_BANDS[i === -1 ? ALARM_RATE_BANDS.length - 1 : i]!;
}

export const AlarmHealthQuery = Type.Object({
  /** The range [startTime, endTime), ms since the epoch; at most 31 days. */
  startTime: EpochMs,
  endTime: EpochMs,
});
export type AlarmHealthQuery = Static<typeof AlarmHealthQuery>;

const HealthAlarm = Type.Object({
  id: Type.Integer(),
  ruleId: Type.Integer(),
  ruleName: Type.String(),
  thingId: Type.Integer(),
  thingName: Type.String(),
  severity: Type.Enum(SEVERITIES),
  alarmAt: Type.String(),
  occurrences: Type.Integer(),
});

/** A chattering alarm and how often it annunciated in the range. */
const ChatteringAlarm = Type.Intersect([HealthAlarm, Type.Object({ annunciations: Type.Integer() })]);

/**
 * The health of the alarm system over a range. Per ISA-18.2 / EEMUA 191 every annunciation counts
 * (an alarm becoming active and unacknowledged: its raise and each re-raise grouped into it), so a
 * chattering alarm weighs in the rate, the peak, the floods and the bad actors as often as the
 * operator was shown it; `alarms` counts the distinct alarms beside it.
 */
export const AlarmHealth = Type.Object({
  startTime: Type.Number(),
  endTime: Type.Number(),
  /** Annunciations in the range (suppressed ones are counted apart: nobody was shown them). */
  total: Type.Integer(),
  /** Distinct alarms those annunciations belong to. */
  alarms: Type.Integer(),
  suppressed: Type.Integer(),
  /** Annunciations in each 10-minute period from `startTime` (the last one may be shorter). */
  periods: Type.Array(Type.Integer()),
  /** Per 10 minutes, over the periods already begun (a range reaching into the future is not diluted). */
  average: Type.Number(),
  max: Type.Integer(),
  band: Type.Enum(ALARM_RATE_BANDS),
  /** Percent of the periods begun holding more than FLOOD_ALARMS annunciations. */
  floodPeriodsPercent: Type.Number(),
  /** Runs of more than FLOOD_ALARMS annunciations within any 10 minutes: first and last, how many. */
  floods: Type.Array(Type.Object({ start: Type.String(), end: Type.String(), count: Type.Integer() })),
  /** The time standing alarms are judged at: the range's end, or now if that is earlier. */
  standingAt: Type.String(),
  /** Active for over 24 h at `standingAt`, oldest first. */
  standing: Type.Array(HealthAlarm),
  standingCount: Type.Integer(),
  /** Alarms flagged chattering by the engine that annunciated in the range, most annunciations first. */
  chattering: Type.Array(ChatteringAlarm),
  /** Distinct chattering alarms, and their annunciations in the range. */
  chatteringCount: Type.Integer(),
  chatteringAnnunciations: Type.Integer(),
  /**
   * The rule × thing pairs annunciating most in the range: `count` annunciations, `alarms` distinct
   * alarms; `share` of `total`, 0…1.
   */
  badActors: Type.Array(
    Type.Object({
      ruleId: Type.Integer(),
      ruleName: Type.String(),
      thingId: Type.Integer(),
      thingName: Type.String(),
      count: Type.Integer(),
      alarms: Type.Integer(),
      share: Type.Number(),
    }),
  ),
});
export type AlarmHealth = Static<typeof AlarmHealth>;

export const alarmHealth = endpoint({
  method: 'GET',
  path: '/api/alarm/health',
  querystring: AlarmHealthQuery,
  response: AlarmHealth,
  tags,
  summary:
    'Alarm system health over [startTime, endTime) (ISA-18.2, EEMUA 191): annunciations per 10 minutes, floods, standing and chattering alarms, the top 10 bad actors',
});
