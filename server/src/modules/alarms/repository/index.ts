// All SQL of the alarm module but its notification settings (notify/repository.ts), one file per
// entity, as Grafana's ngalert/store keeps them.
export * from './history.ts';
export * from './maintenance.ts';
export * from './monitors.ts';
export * from './rules.ts';
export * from './templates.ts';
export * from './timers.ts';
