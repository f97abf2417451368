import { setFlagsFromString } from 'node:v8';

/**
 * V8 lets the old generation grow by a factor it picks from the collector's speed, up to 4×
 * between full collections. Under a steady stream of points that factor stays high, so the heap
 * rises for minutes to ≈ 650 MB before each full collection drops it (bench/README.md "Memory
 * soak"). Growing by 1.5× keeps its teeth near 100 MB; the collector's share of the main thread
 * stays ≈ 2 % (measured there).
 * `node --heap-growing-percent=N` (refused in NODE_OPTIONS) still chooses otherwise.
 *
 * Imported first by server.ts, so it is set before the server allocates its state.
 */
const FLAG = '--heap-growing-percent';
const PERCENT = 50;

if (!process.execArgv.some((arg) => arg.startsWith(FLAG))) setFlagsFromString(`${FLAG}=${PERCENT}`);
