/**
 * Thing metadata for the engines (docs/architecture.md "Catalog"): ingest, query, and next the
 * alarm engine and energy statistics read things, abilities and regions' things only through it.
 */
export {
  type Catalog,
  createCatalog,
  type RegionReads,
  type Resolved,
  type ThingReads,
} from './service.ts';
