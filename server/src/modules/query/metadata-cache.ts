/**
 * Generation of the query metadata (things, their models and abilities, regions and bindings).
 * The things and regions services call `invalidateQueryMetadata()` after each write, so a query
 * service in this process never answers from entries read before it; writes by another server
 * on the same database are seen when the entries expire (`METADATA_TTL_MS`).
 */
let generation = 0;

/** How long a query service keeps a resolved thing or region, when nothing here changed it. */
export const METADATA_TTL_MS = 5_000;

/** Marks every cached query metadata entry stale (called after writes to things and regions). */
export function invalidateQueryMetadata(): void {
  generation++;
}

/** The current generation: an entry read at generation g is valid while this still returns g. */
export const metadataGeneration = (): number => generation;
