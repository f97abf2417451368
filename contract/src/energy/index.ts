// Energy's shapes: statistics, tariffs and their calendar, the bill, KPI reports and their
// schedules, EnPI, filter groups and the period table. contract/src/index.ts re-exports this
// one file, so `@kilowatch/contract` exports them as before.
export * from './enpi.ts';
export * from './filter-groups.ts';
export * from './periods.ts';
export * from './report-schedules.ts';
export * from './reports.ts';
export * from './statistics.ts';
export * from './tariff-calendar.ts';
export * from './tariffs.ts';
