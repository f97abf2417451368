export * from './admin.ts';
export * from './auth.ts';
export * from './common.ts';
export * from './constants.ts';
export * from './regions.ts';
export * from './routes.ts';
export * from './system.ts';
export * from './things.ts';
