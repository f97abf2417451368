import { deflateSync } from 'node:zlib';
import type { DashboardService } from '../modules/dashboard/index.ts';
import { ROOT_REGION, type ThingPlan } from '../simulator/index.ts';

/** What the demo needs of the dashboard module: the layout image and its markers. */
export type DemoDashboard = Pick<DashboardService, 'map' | 'saveImage' | 'place'>;

/** The generated site plan's size in pixels (the overview scales it to the wall). */
const LAYOUT_WIDTH = 1600;
const LAYOUT_HEIGHT = 1000;

type Rgb = readonly [number, number, number];

/** A rectangle in fractions of the plan: x, y of its top-left corner, width, height. */
interface Area {
  name: string;
  rect: readonly [number, number, number, number];
  fill: Rgb;
  /** Rooms or lines inside it, in fractions of the building. */
  rooms?: readonly Area[];
}

const WORKSHOP: Rgb = [219, 234, 254];
const UTILITY: Rgb = [220, 252, 231];
const OFFICE: Rgb = [254, 243, 199];
const ROOM: Rgb = [248, 250, 252];

/**
 * The demo plant's site: its four buildings (the regions under 示范工厂) along a cross of roads,
 * each with its lines or rooms (the leaf regions) inside.
 */
const SITE: readonly Area[] = [
  {
    name: '一号车间',
    rect: [0.05, 0.07, 0.42, 0.38],
    fill: WORKSHOP,
    rooms: [
      { name: '装配线A', rect: [0.06, 0.12, 0.88, 0.34], fill: ROOM },
      { name: '装配线B', rect: [0.06, 0.56, 0.88, 0.34], fill: ROOM },
    ],
  },
  {
    name: '二号车间',
    rect: [0.53, 0.07, 0.42, 0.38],
    fill: WORKSHOP,
    rooms: [
      { name: '机加工线', rect: [0.06, 0.12, 0.88, 0.34], fill: ROOM },
      { name: '喷涂线', rect: [0.06, 0.56, 0.88, 0.34], fill: ROOM },
    ],
  },
  {
    name: '动力站',
    rect: [0.05, 0.55, 0.42, 0.38],
    fill: UTILITY,
    rooms: [
      { name: '变配电室', rect: [0.05, 0.12, 0.42, 0.78], fill: ROOM },
      { name: '空压站', rect: [0.53, 0.12, 0.42, 0.5], fill: ROOM },
      { name: '水泵房', rect: [0.53, 0.68, 0.42, 0.22], fill: ROOM },
    ],
  },
  { name: '办公楼', rect: [0.53, 0.55, 0.42, 0.38], fill: OFFICE },
];

/** A room's rectangle in fractions of the whole plan. */
const inPlan = (building: Area, room: Area): Area['rect'] => {
  const [bx, by, bw, bh] = building.rect;
  const [x, y, w, h] = room.rect;
  return [bx + x * bw, by + y * bh, w * bw, h * bh];
};

/** Rooms whose machines are placed too: their own marker sits near their top, above them. */
const MACHINE_ROOMS = new Set(['变配电室', '空压站']);
/** How far below a building's or machine room's top edge its marker sits (fraction of the plan). */
const ROOF = 0.03;

/** A room's rectangle in the plan, by name. */
function roomRect(name: string): Area['rect'] | null {
  for (const building of SITE)
    for (const room of building.rooms ?? []) if (room.name === name) return inPlan(building, room);
  return null;
}

/** Where a region's marker sits: the middle of its building or room (null for the root). */
function regionSpot(name: string): { x: number; y: number } | null {
  for (const building of SITE) {
    const [x, y, w, h] = building.rect;
    // Buildings with rooms carry their marker on the band above the rooms.
    if (building.name === name) return { x: x + w / 2, y: building.rooms ? y + ROOF : y + h / 2 };
  }
  const room = roomRect(name);
  if (!room) return null;
  const [x, y, w, h] = room;
  return { x: x + w / 2, y: MACHINE_ROOMS.has(name) ? y + ROOF : y + h / 2 };
}

// ---- PNG ----------------------------------------------------------------------------------------

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

const crc32 = (bytes: Uint8Array): number => {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

const chunk = (type: string, data: Uint8Array): Buffer => {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  Buffer.from(data).copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
};

/** An 8-bit RGB PNG of `pixels` (rows of width × 3 bytes). */
function encodePng(width: number, height: number, pixels: Uint8Array): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    // Filter type 0 (none) before each row.
    rows.set(pixels.subarray(y * width * 3, (y + 1) * width * 3), y * (width * 3 + 1) + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

/**
 * The site plan as a PNG, drawn from SITE: grass, the roads, each building with a wall and its
 * rooms. No lettering: the overview's markers name the regions and devices on it.
 */
function drawLayout(width = LAYOUT_WIDTH, height = LAYOUT_HEIGHT): Buffer {
  const pixels = new Uint8Array(width * height * 3);
  const fill = ([x, y, w, h]: Area['rect'], [r, g, b]: Rgb) => {
    const x0 = Math.round(x * width);
    const y0 = Math.round(y * height);
    const x1 = Math.round((x + w) * width);
    const y1 = Math.round((y + h) * height);
    for (let py = Math.max(0, y0); py < Math.min(height, y1); py++) {
      for (let px = Math.max(0, x0); px < Math.min(width, x1); px++) {
        const i = (py * width + px) * 3;
        pixels[i] = r;
        pixels[i + 1] = g;
        pixels[i + 2] = b;
      }
    }
  };
  const box = (rect: Area['rect'], inside: Rgb, wall: Rgb, thickness: number) => {
    const [x, y, w, h] = rect;
    const tx = thickness / width;
    const ty = thickness / height;
    fill(rect, wall);
    fill([x + tx, y + ty, w - 2 * tx, h - 2 * ty], inside);
  };
  fill([0, 0, 1, 1], [236, 241, 236]);
  // The roads: one across the middle, one down it, and the ring inside the fence.
  const road: Rgb = [203, 213, 225];
  fill([0, 0.47, 1, 0.06], road);
  fill([0.48, 0, 0.04, 1], road);
  fill([0.02, 0.02, 0.96, 0.02], road);
  fill([0.02, 0.96, 0.96, 0.02], road);
  fill([0.02, 0.02, 0.012, 0.96], road);
  fill([0.968, 0.02, 0.012, 0.96], road);
  for (let x = 0.01; x < 1; x += 0.04) fill([x, 0.497, 0.02, 0.006], [255, 255, 255]);
  for (let y = 0.01; y < 1; y += 0.04) fill([0.497, y, 0.006, 0.02], [255, 255, 255]);
  for (const building of SITE) {
    box(building.rect, building.fill, [71, 85, 105], 6);
    for (const room of building.rooms ?? []) box(inPlan(building, room), room.fill, [148, 163, 184], 3);
  }
  return encodePng(width, height, pixels);
}

/**
 * The demo's situation overview: the site plan uploaded as the layout image (through the
 * dashboard service's own checks), a marker for each building and room, and one for each
 * transformer and compressor in its room. Skipped when a layout image is already there.
 */
export async function seedLayout(
  dashboard: DemoDashboard,
  regions: ReadonlyMap<string, number>,
  plan: readonly ThingPlan[],
  idOf: (identifier: string) => number | undefined,
): Promise<boolean> {
  if ((await dashboard.map()).image) return false;
  await dashboard.saveImage(drawLayout(), 'demo');
  for (const [name, id] of regions) {
    const spot = name === ROOT_REGION ? null : regionSpot(name);
    if (spot) await dashboard.place({ resourceType: 'region', resourceId: id, ...spot });
  }
  // The machines a plant engineer looks for on the plan, in a grid under their room's marker:
  // transformers in a column down the tall 变配电室, compressors three abreast in 空压站.
  for (const [kind, cols, rowStep] of [
    ['transformer', 1, 0.065],
    ['compressor', 3, 0.055],
  ] as const) {
    let i = 0;
    for (const machine of plan.filter((t) => t.kind === kind)) {
      const room = roomRect(machine.region.at(-1) as string);
      const id = idOf(machine.identifier);
      if (!room || id === undefined) continue;
      const [x, y, w] = room;
      await dashboard.place({
        resourceType: 'thing',
        resourceId: id,
        x: x + (w * ((i % cols) + 0.5)) / cols,
        y: y + ROOF + 0.05 + Math.floor(i / cols) * rowStep,
      });
      i++;
    }
  }
  return true;
}
