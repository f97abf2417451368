/** The grid a user watches: how many tiles and which camera in each, kept per user in local storage. */

export const LAYOUTS = [1, 4, 9, 16] as const;
export type Layout = (typeof LAYOUTS)[number];

export interface GridState {
  layout: Layout;
  /** Camera id per tile, `null` for an empty tile; as long as the largest layout. */
  slots: (number | null)[];
}

const MAX_TILES = 16;
export const EMPTY_GRID: GridState = { layout: 4, slots: Array(MAX_TILES).fill(null) };

/** Local storage, not the server: the grid is one browser's wall, and two screens may differ. */
export const storageKey = (userId: number) => `kilowatch.video.grid.${userId}`;

const isLayout = (value: unknown): value is Layout => LAYOUTS.includes(value as Layout);

/** The saved grid, or the empty 2×2 one when none was saved or what was saved is not a grid. */
export function loadGrid(userId: number, storage: Pick<Storage, 'getItem'> = localStorage): GridState {
  try {
    const saved: unknown = JSON.parse(storage.getItem(storageKey(userId)) ?? 'null');
    if (!saved || typeof saved !== 'object') return EMPTY_GRID;
    const { layout, slots } = saved as { layout?: unknown; slots?: unknown };
    if (!isLayout(layout) || !Array.isArray(slots)) return EMPTY_GRID;
    const ids = slots.slice(0, MAX_TILES).map((s) => (Number.isInteger(s) ? (s as number) : null));
    return { layout, slots: [...ids, ...Array(MAX_TILES - ids.length).fill(null)] };
  } catch {
    // A hand-edited or foreign value: start from an empty grid rather than fail the screen.
    return EMPTY_GRID;
  }
}

export function saveGrid(
  userId: number,
  grid: GridState,
  storage: Pick<Storage, 'setItem'> = localStorage,
): void {
  storage.setItem(storageKey(userId), JSON.stringify(grid));
}

/** Puts a camera in a tile; a camera shows once, so it leaves the tile it was in. */
export function placeCamera(grid: GridState, tile: number, cameraId: number): GridState {
  const slots = grid.slots.map((id) => (id === cameraId ? null : id));
  slots[tile] = cameraId;
  return { ...grid, slots };
}

/** The tile a picked camera goes to: the selected one, else the first empty visible one, else the last. */
export function targetTile(grid: GridState, selected: number | null): number {
  if (selected !== null && selected < grid.layout) return selected;
  const empty = grid.slots.slice(0, grid.layout).indexOf(null);
  return empty >= 0 ? empty : grid.layout - 1;
}

/** Fills the visible tiles with a list of cameras (a region's), in order. */
export function fillWith(grid: GridState, cameraIds: readonly number[]): GridState {
  const slots = [...grid.slots];
  for (let i = 0; i < grid.layout; i++) slots[i] = cameraIds[i] ?? null;
  return { ...grid, slots };
}

/** The smallest layout holding `count` tiles. */
export const layoutFor = (count: number): Layout => LAYOUTS.find((l) => l >= count) ?? 16;
