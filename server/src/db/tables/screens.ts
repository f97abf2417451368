import type { Generated } from 'kysely';

/**
 * A component grid's columns besides its owner's (modules/component-grid): the KPI reports' and the
 * board pages' tables have these, and each its owner's id.
 */
export interface ComponentGridColumns {
  id: Generated<number>;
  title: string;
  chart_type: string;
  /** JSON: ComponentYoy. */
  yoy: string;
  /** JSON: ComponentParams. */
  params: string;
  /** JSON array: ComponentMetric. */
  metrics: string;
  x: number;
  y: number;
  w: number;
  h: number;
  created_at: string;
  updated_at: string;
}

// ---- workshop data board (migration 0360; docs/board.md) ----------------------------------------

interface BoardPagesTable {
  id: Generated<number>;
  name: string;
  region_id: number;
  /** 1: the region's sub-regions count too. */
  successor: number;
  category_id: number | null;
  interval_s: number;
  weight: number;
  enabled: number;
  created_at: string;
  updated_at: string;
}

interface BoardComponentsTable extends ComponentGridColumns {
  page_id: number;
}

export interface ScreensDB {
  board_pages: BoardPagesTable;
  board_components: BoardComponentsTable;
}

// ---- situation overview (issue 13) ----

export interface ScreensDB {
  dashboard_map_image: DashboardMapImageTable;
  dashboard_placements: DashboardPlacementsTable;
}

interface DashboardMapImageTable {
  /** Always 1: the plant has one layout image. */
  id: number;
  /** image/png | image/jpeg */
  type: string;
  bytes: Uint8Array;
  width: number;
  height: number;
  size: number;
  version: string;
  updated_by: string;
  updated_at: string;
}

interface DashboardPlacementsTable {
  id: Generated<number>;
  /** One of thing_id and region_id is set. */
  thing_id: number | null;
  region_id: number | null;
  x: number;
  y: number;
  updated_at: string;
}
// ---- single-line diagrams (migration 0410; docs/electric-diagram.md) -----------------------------

export interface ScreensDB {
  diagrams: DiagramsTable;
}

export interface DiagramsTable {
  id: Generated<number>;
  name: string;
  /** JSON: DiagramGraph (contract/src/diagrams.ts). */
  graph: string;
  created_at: string;
  updated_at: string;
}

// ---- saved Explore views (migration 0560; docs/explore.md) ----------------------------------------

export interface ScreensDB {
  explore_views: ExploreViewsTable;
}

export interface ExploreViewsTable {
  id: Generated<number>;
  owner_id: number;
  name: string;
  /** JSON: ExploreState (contract/src/explore.ts). */
  state: string;
  created_at: string;
  updated_at: string;
}
