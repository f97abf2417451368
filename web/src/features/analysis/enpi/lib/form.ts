import type { Enpi, EnpiInput, EnpiPeriod, EnpiSource, EnpiVariable } from '@kilowatch/contract';

/** The EnPI dialog's fields; targets are picker values `thing:<id>`, `region:<id>`, `filterGroup:<id>`. */
export interface EnpiFormValues {
  name: string;
  description?: string;
  energyTarget?: string;
  energyMetric: string;
  outputKind: 'metric' | 'entered';
  outputTarget?: string;
  outputMetric?: string;
  outputUnit?: string;
  temperatureTarget?: string;
  temperatureMetric?: string;
  heatingBase?: number | null;
  coolingBase?: number | null;
  period: EnpiPeriod;
  /** Local dates YYYY-MM-DD, first and last day of the baseline. */
  baseline?: [string, string];
  variables: EnpiVariable[];
}

const targetValue = (s: Pick<EnpiSource, 'resourceType' | 'resourceId'>) =>
  `${s.resourceType}:${s.resourceId}`;

export function sourceOf(target: string, metric: string): EnpiSource {
  const [type, id] = target.split(':');
  return {
    resourceType: type === 'thing' ? 'thing' : type === 'filterGroup' ? 'filterGroup' : 'region',
    resourceId: Number(id),
    metricIdentifier: metric.trim(),
  };
}

export const isThingTarget = (target: string | undefined) => target?.startsWith('thing:') ?? false;

/** A new EnPI: a month period and last year as the baseline (whole months of the plant). */
export function blankValues(today: string): EnpiFormValues {
  const year = Number(today.slice(0, 4)) - 1;
  return {
    name: '',
    description: '',
    energyMetric: 'EP',
    outputKind: 'entered',
    outputUnit: '',
    temperatureMetric: '',
    heatingBase: 18,
    coolingBase: 26,
    period: 'month',
    baseline: [`${year}-01-01`, `${year}-12-31`],
    variables: ['output'],
  };
}

export function valuesOf(e: Enpi): EnpiFormValues {
  return {
    name: e.name,
    description: e.description,
    energyTarget: targetValue(e.energy),
    energyMetric: e.energy.metricIdentifier,
    outputKind: e.output.kind,
    ...(e.output.kind === 'metric'
      ? { outputTarget: targetValue(e.output.source), outputMetric: e.output.source.metricIdentifier }
      : {}),
    outputUnit: e.outputUnit,
    ...(e.temperature
      ? {
          temperatureTarget: `thing:${e.temperature.thingId}`,
          temperatureMetric: e.temperature.metricIdentifier,
          heatingBase: e.temperature.heatingBase,
          coolingBase: e.temperature.coolingBase,
        }
      : { temperatureMetric: '', heatingBase: 18, coolingBase: 26 }),
    period: e.period,
    baseline: [e.baselineStart, e.baselineEnd],
    variables: e.variables,
  };
}

/** The body to send; the dialog has validated the fields it reads. */
export function inputOf(v: EnpiFormValues): EnpiInput {
  const temperature =
    v.temperatureTarget && v.temperatureMetric?.trim()
      ? {
          thingId: Number(v.temperatureTarget.split(':')[1]),
          metricIdentifier: v.temperatureMetric.trim(),
          heatingBase: v.heatingBase ?? null,
          coolingBase: v.coolingBase ?? null,
        }
      : null;
  const [baselineStart, baselineEnd] = v.baseline as [string, string];
  return {
    name: v.name.trim(),
    description: v.description ?? '',
    energy: sourceOf(v.energyTarget as string, v.energyMetric),
    output:
      v.outputKind === 'metric'
        ? { kind: 'metric', source: sourceOf(v.outputTarget as string, v.outputMetric ?? '') }
        : { kind: 'entered' },
    outputUnit: (v.outputUnit ?? '').trim(),
    temperature,
    period: v.period,
    baselineStart,
    baselineEnd,
    variables: v.variables,
  };
}

/** What a variable still lacks in the form (a message key), or null. */
export function variableProblem(v: Partial<EnpiFormValues>): string | null {
  const vars = v.variables ?? [];
  if (vars.length === 0) return 'enpi.required.variables';
  const degree = vars.includes('hdd') || vars.includes('cdd');
  if (degree && (!isThingTarget(v.temperatureTarget) || !v.temperatureMetric?.trim())) {
    return 'enpi.required.temperature';
  }
  if (vars.includes('hdd') && (v.heatingBase === null || v.heatingBase === undefined)) {
    return 'enpi.required.heatingBase';
  }
  if (vars.includes('cdd') && (v.coolingBase === null || v.coolingBase === undefined)) {
    return 'enpi.required.coolingBase';
  }
  return null;
}

/** Numbers with 2 decimals (spec §9); a missing one as a dash. */
export const two = (v: number | null | undefined): string =>
  v === null || v === undefined
    ? '—'
    : v.toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
