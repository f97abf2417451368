// All SQL of the device model lives in this folder, one file per table group. Rows (0/1, JSON text,
// bigint-string counts) become contract objects before they leave it.
export * from './abilities.ts';
export * from './categories.ts';
export * from './models.ts';
export * from './named.ts';
export * from './rows.ts';
export * from './things.ts';
