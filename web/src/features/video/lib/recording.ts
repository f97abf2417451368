/**
 * Recordings at a given moment (an alarm's time): where in an HLS playlist with
 * EXT-X-PROGRAM-DATE-TIME that moment is, and an NVR's playback address for it. Pure, so the
 * arithmetic is tested without a player.
 */

/** Seconds of recording shown before the moment asked for, so the viewer sees what led to it. */
const RECORDING_LEAD_S = 30;
/** Length of the window an NVR template asks for. */
const RECORDING_WINDOW_S = 300;

/** What the offset needs of a playlist's segments (hls.js `Fragment` has these). */
export interface TimedSegment {
  /** Start on the media timeline, seconds. */
  start: number;
  duration: number;
  /** EXT-X-PROGRAM-DATE-TIME of the segment, epoch ms; null when the playlist has none. */
  programDateTime: number | null;
}

export type OffsetAnswer =
  | { ok: true; offset: number }
  | { ok: false; why: 'noProgramDateTime' | 'before' | 'after'; first?: number; last?: number };

/**
 * The media time of wall-clock `at` (epoch ms): inside the segment whose program date-time range
 * holds it, so gaps and discontinuities between segments do not shift the answer.
 * @example offsetAt([{ start: 0, duration: 2, programDateTime: Date.parse('2026-01-01T00:00:00Z') }],
 *   Date.parse('2026-01-01T00:00:01.5Z')) // { ok: true, offset: 1.5 }
 */
export function offsetAt(segments: readonly TimedSegment[], at: number): OffsetAnswer {
  const dated = segments.filter((s) => s.programDateTime !== null) as (TimedSegment & {
    programDateTime: number;
  })[];
  const [head] = dated;
  const tail = dated[dated.length - 1];
  if (!head || !tail) return { ok: false, why: 'noProgramDateTime' };
  const first = head.programDateTime;
  const last = tail.programDateTime + tail.duration * 1000;
  if (at < first) return { ok: false, why: 'before', first, last };
  if (at > last) return { ok: false, why: 'after', first, last };
  let segment = head;
  for (const s of dated) {
    if (s.programDateTime <= at) segment = s;
    else break;
  }
  const into = Math.min((at - segment.programDateTime) / 1000, segment.duration);
  return { ok: true, offset: segment.start + into };
}

const isoSeconds = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/**
 * An NVR playback address for the window around `at`: `{start}` and `{end}` become ISO-8601 UTC
 * times (`2026-11-24T03:00:00Z`, URL-encoded), `{duration}` the window in seconds. The window starts
 * RECORDING_LEAD_S before `at`, so the moment itself is that far into the recording.
 * @example fillTemplate('http://gw:9996/get?path=cam1&start={start}&duration={duration}&format=mp4', at)
 */
export function fillTemplate(template: string, at: number): { url: string; offset: number } {
  const start = at - RECORDING_LEAD_S * 1000;
  const end = start + RECORDING_WINDOW_S * 1000;
  const url = template
    .replaceAll('{start}', encodeURIComponent(isoSeconds(start)))
    .replaceAll('{end}', encodeURIComponent(isoSeconds(end)))
    .replaceAll('{duration}', String(RECORDING_WINDOW_S));
  return { url, offset: RECORDING_LEAD_S };
}

/** Whether an address is an HLS playlist (played with hls.js) rather than a file the element plays. */
export const isHlsUrl = (url: string) => /\.m3u8$/i.test(new URL(url).pathname);
