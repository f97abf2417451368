import { categoryService } from './categories.ts';
import { serviceContext, type ThingsServiceDeps } from './context.ts';
import { importService } from './import.ts';
import { modelService } from './models.ts';
import { thingService } from './things.ts';

export type { ThingsServiceDeps } from './context.ts';
export { ImportRejected } from './import.ts';

export type ThingsService = ReturnType<typeof createThingsService>;

/**
 * The device model (spec §7 "Device management"): categories and their abilities, models and
 * their overrides, things with their removals and access tokens. Each call that writes runs in
 * one transaction, which it passes to the repository.
 */
export function createThingsService(deps: ThingsServiceDeps) {
  const ctx = serviceContext(deps);
  return { ...categoryService(ctx), ...modelService(ctx), ...thingService(ctx), ...importService(ctx) };
}
