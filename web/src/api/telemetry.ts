import { type MetricQuery, queryData } from '@kilowatch/contract';
import { call } from '../lib/call.ts';
import { plantZone } from '../lib/plant-calendar.ts';

/**
 * Telemetry reads of the chart screens (spec §7 "Query and monitoring"), shared by monitoring,
 * home and later analysis/KPI; cached under `keys.telemetry` (api/keys.ts).
 */

export interface DataCallOptions {
  /** The request's stamp (Date.now() string); the server echoes it in the answer. */
  seq?: string | null;
  signal?: AbortSignal;
}

/**
 * POST /api/query/data?seq=. Silent (charts poll; no 加载中... flash) and allowed to run
 * concurrently with the other charts' calls.
 */
export const fetchMetricData = async (query: MetricQuery, { seq, signal }: DataCallOptions = {}) => {
  const answer = await call(queryData, {
    body: query,
    query: { seq: seq ?? undefined },
    silent: true,
    allowDuplicate: true,
    signal,
  });
  if (answer.timeZone) knownPlantZone = answer.timeZone;
  return answer;
};

let knownPlantZone: string | null = null;

/**
 * The plant's time zone (PLANT_TIMEZONE) as the last query answer told it; the browser's zone
 * until one has arrived. Exports print their times in it.
 */
export const plantTimeZone = (): string => knownPlantZone ?? plantZone();
