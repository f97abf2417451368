import { setFlagsFromString } from 'node:v8';

/**
 * V8 lets the old generation grow by a factor it picks from the collector's speed, up to 4×
 * between full collections. Under a steady stream of points that factor stays high, so the heap
 * rises for minutes to ≈ 650 MB before each full collection drops it (bench/README.md "Memory
 * soak"). Growing by 1.5× keeps it between ≈ 120 and 260 MB there, and the collector takes less
 * of the main thread, not more: more full collections, each of a smaller heap.
 * `node --heap-growing-percent=N` (refused in NODE_OPTIONS) still chooses otherwise.
 *
 * Imported first by server.ts, so it is set before the server allocates its state.
 */
const FLAG = '--heap-growing-percent';
const PERCENT = 50;

if (!process.execArgv.some((arg) => arg.startsWith(FLAG))) setFlagsFromString(`${FLAG}=${PERCENT}`);
