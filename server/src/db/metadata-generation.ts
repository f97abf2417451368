/**
 * A counter of metadata writes in this process (things, models, abilities, regions, bindings).
 * Writers bump it; readers that cache metadata (the query service) drop entries read at an older
 * generation, so they never answer from data this process has since changed. Writes by another
 * server on the same database are seen only when the reader's own cache entries expire.
 */
let generation = 0;

/** Called by the things and regions services after each write. */
export function markMetadataChanged(): void {
  generation++;
}

/** The current generation: an entry read at generation g is valid while this still returns g. */
export const metadataGeneration = (): number => generation;
