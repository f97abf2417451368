/**
 * Thing metadata for the engines (docs/architecture.md "Catalog"): ingest, query, and next the
 * alarm engine and energy statistics read things, abilities and regions' things only through it.
 */
export {
  CATALOG_TTL_MS,
  type Catalog,
  type CatalogDeps,
  createCatalog,
  type RegionReads,
  type Resolved,
  type Selection,
  type ThingReads,
} from './service.ts';
