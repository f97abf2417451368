/**
 * Reads: raw points (from the recent window in memory when it holds the range), buckets on the
 * grid from the coarsest rollup that tiles it, and chart downsampling from the rollups.
 */
export { bucketColumnsAt, bucketsAt } from './buckets.ts';
export type { ReadContext } from './context.ts';
export { downsample } from './downsample.ts';
export { inSnapshot, pointColumns, points } from './points.ts';
