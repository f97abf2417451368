import { type Static, Type } from 'typebox';
import { SEVERITIES } from './alarm-rules.ts';
import { IdParams, Ok, RowId } from './common.ts';
import { endpoint } from './endpoint.ts';
import { TariffSource } from './energy/index.ts';
import { ResourceTypeSchema } from './query.ts';
import { PRESENCE_STATES } from './things.ts';

/**
 * The situation overview (/dashboard, issue 13; docs/dashboard.md): the plant's totals now, and the
 * situation map, the plant's own layout image with things and regions placed on it.
 */

/** The layout image's types: raster only, an SVG can carry script (docs/dashboard.md). */
export const MAP_IMAGE_TYPES = ['image/png', 'image/jpeg'] as const;
export type MapImageType = (typeof MAP_IMAGE_TYPES)[number];
/** Largest layout image accepted, in bytes. */
export const MAP_IMAGE_MAX_BYTES = 10 * 1024 * 1024;
/** Largest side of a layout image, in pixels (a 4K wall is 3840 wide; room for zoomed plans). */
export const MAP_IMAGE_MAX_SIDE = 16_384;
/**
 * Most pixels of a layout image, width × height (8K, 7680 × 4320): a small file may declare a huge
 * image, and every screen showing the map holds it decoded, 4 bytes a pixel.
 */
export const MAP_IMAGE_MAX_PIXELS = 7680 * 4320;
/**
 * The console shrinks a layout larger than this (4096 × 4096 pixels) before uploading it: a wall
 * screen shows it at most this sharp, so the rest would only cost memory on every screen.
 */
export const MAP_IMAGE_DISPLAY_PIXELS = 4096 * 4096;
/** Markers one map holds. */
export const MAX_PLACEMENTS = 500;

const Count = Type.Integer({ minimum: 0 });

export const OverviewQuery = Type.Object({
  /** The tariff that prices today's energy; default the plant's first tariff (lowest id). */
  tariffId: Type.Optional(RowId),
});
export type OverviewQuery = Static<typeof OverviewQuery>;

export const AlarmCounts = Type.Object({
  critical: Count,
  major: Count,
  minor: Count,
  warning: Count,
  /** Of those, active and not acknowledged (what flashes). */
  unacknowledged: Count,
});
export type AlarmCounts = Static<typeof AlarmCounts>;

export const Overview = Type.Object({
  /** When it was computed, ms since the epoch. */
  at: Type.Number(),
  /** The plant: the first root region (as the home screen), null when there is none. */
  region: Type.Union([Type.Object({ id: Type.Integer(), name: Type.String() }), Type.Null()]),
  /** Sum of the latest power (`metrics.power`, kW) of the plant's online things; null without any. */
  power: Type.Union([Type.Number(), Type.Null()]),
  /** Today's energy (`metrics.energy` counters, kWh) on the plant calendar; null without any counter. */
  energyToday: Type.Union([Type.Number(), Type.Null()]),
  /** Today's cost by the tariff (`?tariffId=`, else the plant's, erpConfig's `tariffId`); null without one. */
  costToday: Type.Union([Type.Number(), Type.Null()]),
  /** The tariff that priced today's cost, and why: asked, the plant region's own, or the plant's. */
  tariff: Type.Union([
    Type.Object({ id: Type.Integer(), name: Type.String(), source: TariffSource }),
    Type.Null(),
  ]),
  /** Active alarms (not shelved, suppressed or closed) by severity. */
  alarms: AlarmCounts,
  devices: Type.Object({ online: Count, offline: Count, never: Count, total: Count }),
  /** The identifiers summed as the plant's power (kW) and energy (kWh counter); null when none qualifies. */
  metrics: Type.Object({
    power: Type.Union([Type.String(), Type.Null()]),
    energy: Type.Union([Type.String(), Type.Null()]),
  }),
});
export type Overview = Static<typeof Overview>;

export const MapImage = Type.Object({
  type: Type.Enum(MAP_IMAGE_TYPES),
  width: Type.Integer(),
  height: Type.Integer(),
  size: Type.Integer(),
  /** Changes with every upload: the console's cache key for the bytes. */
  version: Type.String(),
  updatedAt: Type.String(),
  updatedBy: Type.String(),
});
export type MapImage = Static<typeof MapImage>;

/** A fraction of the image's width or height, so a marker stays put from 1080p to 4K. */
const Fraction = Type.Number({ minimum: 0, maximum: 1 });

export const PlacementInput = Type.Object({
  resourceType: ResourceTypeSchema,
  resourceId: RowId,
  x: Fraction,
  y: Fraction,
});
export type PlacementInput = Static<typeof PlacementInput>;

export const PlacementMove = Type.Object({ x: Fraction, y: Fraction });
export type PlacementMove = Static<typeof PlacementMove>;

export const Placement = Type.Object({
  id: Type.Integer(),
  resourceType: ResourceTypeSchema,
  resourceId: Type.Integer(),
  name: Type.String(),
  x: Type.Number(),
  y: Type.Number(),
  /** A thing's presence; a region's is that of the worst of its things (never when it has none). */
  presence: Type.Enum(PRESENCE_STATES),
  /** A region's things online / in all; a thing counts itself. */
  online: Count,
  things: Count,
  /** The worst active alarm of the thing (or of the region's things), null without one. */
  alarm: Type.Union([
    Type.Object({ severity: Type.Enum(SEVERITIES), unacknowledged: Type.Boolean(), count: Count }),
    Type.Null(),
  ]),
});
export type Placement = Static<typeof Placement>;

export const SituationMap = Type.Object({
  image: Type.Union([MapImage, Type.Null()]),
  placements: Type.Array(Placement),
});
export type SituationMap = Static<typeof SituationMap>;

const tags = ['dashboard'];

export const dashboardOverview = endpoint({
  method: 'GET',
  path: '/api/dashboard/overview',
  querystring: OverviewQuery,
  response: Overview,
  tags,
  summary: "The plant's totals now: power, today's energy and cost, active alarms, devices online",
  description: '404 unknown tariff.',
});

export const dashboardMap = endpoint({
  method: 'GET',
  path: '/api/dashboard/map',
  response: SituationMap,
  tags,
  summary:
    'The situation map: the layout image (without its bytes) and the placed things and regions with their state',
});

export const dashboardMapImage = endpoint({
  method: 'GET',
  path: '/api/dashboard/map/image',
  response: Type.Unsafe<Blob>({ description: 'The layout image', type: 'string', format: 'binary' }),
  raw: true,
  tags,
  summary: 'The layout image bytes (png or jpeg); 404 when none was uploaded',
  produces: [...MAP_IMAGE_TYPES],
});

/** A multipart body (field `file`): the console sends it with `upload()`. */
export const dashboardMapUpload = endpoint({
  method: 'POST',
  path: '/api/dashboard/map/image',
  response: MapImage,
  tags,
  summary: 'Upload (replace) the layout image: png or jpeg, at most 10 MB and 16,384 px a side',
  description:
    'The type is read from the bytes, not the name. 400 no file, 413 too large, 415 not a png or jpeg (an SVG is refused: it can carry script), 422 an image whose size cannot be read or is too large. Placements keep their fractions.',
  consumes: ['multipart/form-data'],
});

export const dashboardMapImageDelete = endpoint({
  method: 'DELETE',
  path: '/api/dashboard/map/image',
  response: Ok,
  tags,
  summary: 'Remove the layout image (placements are kept for the next image)',
});

export const placementCreate = endpoint({
  method: 'POST',
  path: '/api/dashboard/placements',
  body: PlacementInput,
  response: Placement,
  tags,
  summary: 'Place a thing or region on the map (placing it again moves it)',
  description: '404 unknown thing or region; 422 the map holds 500 markers.',
});

export const placementMove = endpoint({
  method: 'PUT',
  path: '/api/dashboard/placements/:id',
  params: IdParams,
  body: PlacementMove,
  response: Placement,
  tags,
  summary: 'Move a marker',
});

export const placementDelete = endpoint({
  method: 'DELETE',
  path: '/api/dashboard/placements/:id',
  params: IdParams,
  response: Ok,
  tags,
  summary: 'Take a marker off the map',
});
