import { Graph } from '@antv/x6';
import type { DiagramSymbol } from '@kilowatch/contract';
import { SYMBOL_SIZE } from './topology.ts';

/**
 * The symbols drawn as X6 nodes: each a glyph in its own box (GB/T 4728 shapes, simplified),
 * a label on the left, live values on the right, and a halo that flashes on an active alarm.
 * Ports `t` and `b` (top, bottom) are where wires attach; a wire dropped on a busbar lands where it meets it.
 */

const SHAPE_PREFIX = 'kw-';
export const shapeOf = (symbol: DiagramSymbol) => `${SHAPE_PREFIX}${symbol}`;
export const symbolOfShape = (shape: string) => shape.slice(SHAPE_PREFIX.length) as DiagramSymbol;

/** Colours: live sections in the plant's convention (red live, grey dead), switches red closed, green open. */
export const COLOURS = {
  live: '#e8491d',
  dead: '#8c8c8c',
  closed: '#cf1322',
  open: '#389e0d',
  unknown: '#d4b106',
  alarm: '#f5222d',
  found: '#1677ff',
  flagged: '#cf1322',
  value: '#1d39c4',
} as const;

const glyphs: Record<Exclude<DiagramSymbol, 'busbar'>, string> = {
  incoming: 'M20 0 V60 M12 6 L20 16 L28 6',
  transformer: 'M20 0 V8 M20 56 V64',
  breaker: 'M15 0 V10 M15 30 V40',
  disconnector: 'M15 0 V12 M9 12 H21 M15 28 V40',
  feeder: 'M20 0 V56 M12 46 L20 58 L28 46',
  meter: '',
  capacitor: 'M20 0 V18 M8 18 H32 M8 26 H32 M20 26 V38 M10 38 H30 M13 42 H27 M16 46 H24',
  generator: 'M22 0 V2 M22 42 V44',
};

/** Each switch's blade path, closed and open. */
export const BLADES = {
  breaker: { closed: 'M15 10 V30', open: 'M15 30 L5 12' },
  disconnector: { closed: 'M15 28 V12', open: 'M15 28 L4 14' },
} as const;

const port = (group: 'top' | 'bottom') => ({
  position: group,
  attrs: {
    circle: {
      r: 4,
      magnet: true,
      stroke: '#1677ff',
      strokeWidth: 1,
      fill: '#fff',
      style: { visibility: 'hidden' },
    },
  },
});

const common = (symbol: DiagramSymbol) => {
  const { width, height } = SYMBOL_SIZE[symbol];
  return {
    width,
    height,
    ports: {
      groups: { top: port('top'), bottom: port('bottom') },
      items:
        symbol === 'busbar'
          ? []
          : [
              { id: 't', group: 'top' },
              { id: 'b', group: 'bottom' },
            ],
    },
  };
};

const labelAttrs = {
  refX: -6,
  refY: 0.5,
  textAnchor: 'end',
  textVerticalAnchor: 'middle',
  fontSize: 12,
  fill: '#262626',
  // The canvas hides names and values by class when zoomed out too far to read them (viewport.ts).
  class: 'kw-name',
};
const belowLabel = {
  ...labelAttrs,
  refX: 0.5,
  refY: '100%',
  refY2: 6,
  textAnchor: 'middle',
  textVerticalAnchor: 'top',
};
const valueAttrs = {
  refX: '100%',
  refX2: 8,
  refY: 0,
  textAnchor: 'start',
  textVerticalAnchor: 'top',
  fontSize: 12,
  fontFamily: 'monospace',
  fill: COLOURS.value,
  cursor: 'pointer',
  class: 'kw-value',
};
const halo = {
  refWidth: '100%',
  refHeight: '100%',
  refX: -4,
  refY: -4,
  refWidth2: 8,
  refHeight2: 8,
  fill: 'none',
  stroke: 'none',
  strokeWidth: 3,
  rx: 4,
};
const hit = { refWidth: '100%', refHeight: '100%', fill: 'transparent', stroke: 'none' };
const stroke = { stroke: COLOURS.dead, strokeWidth: 2, fill: 'none' };

let registered = false;

/** Registers the symbol shapes once per page (X6 keeps a global registry). */
export function registerSymbols(): void {
  if (registered) return;
  registered = true;
  for (const symbol of Object.keys(glyphs) as (keyof typeof glyphs)[]) {
    const extra: { tagName: string; selector: string }[] = [];
    const extraAttrs: Record<string, object> = {};
    if (symbol === 'transformer') {
      extra.push({ tagName: 'circle', selector: 'c1' }, { tagName: 'circle', selector: 'c2' });
      extraAttrs.c1 = { ...stroke, cx: 20, cy: 22, r: 14 };
      extraAttrs.c2 = { ...stroke, cx: 20, cy: 42, r: 14 };
    }
    if (symbol === 'breaker' || symbol === 'disconnector') {
      if (symbol === 'breaker') {
        extra.push({ tagName: 'rect', selector: 'box' });
        extraAttrs.box = {
          x: 7,
          y: 9,
          width: 16,
          height: 22,
          fill: COLOURS.closed,
          fillOpacity: 0.15,
          stroke: COLOURS.closed,
          strokeWidth: 1.5,
        };
      }
      extra.push({ tagName: 'path', selector: 'blade' });
      extraAttrs.blade = { ...stroke, d: BLADES[symbol].closed };
    }
    if (symbol === 'meter') {
      extra.push({ tagName: 'circle', selector: 'c1' }, { tagName: 'text', selector: 'mark' });
      extraAttrs.c1 = { ...stroke, cx: 18, cy: 18, r: 16 };
      extraAttrs.mark = {
        x: 18,
        y: 18,
        text: 'PM',
        fontSize: 11,
        textAnchor: 'middle',
        textVerticalAnchor: 'middle',
        fill: '#595959',
      };
    }
    if (symbol === 'generator') {
      extra.push({ tagName: 'circle', selector: 'c1' }, { tagName: 'text', selector: 'mark' });
      extraAttrs.c1 = { ...stroke, cx: 22, cy: 22, r: 20 };
      extraAttrs.mark = {
        x: 22,
        y: 22,
        text: 'G~',
        fontSize: 13,
        textAnchor: 'middle',
        textVerticalAnchor: 'middle',
        fill: '#595959',
      };
    }
    Graph.registerNode(
      shapeOf(symbol),
      {
        ...common(symbol),
        markup: [
          { tagName: 'rect', selector: 'halo' },
          { tagName: 'rect', selector: 'body' },
          { tagName: 'path', selector: 'glyph' },
          ...extra,
          { tagName: 'text', selector: 'label' },
          { tagName: 'text', selector: 'value' },
        ],
        attrs: {
          halo,
          body: hit,
          glyph: { ...stroke, d: glyphs[symbol] },
          ...extraAttrs,
          // A feeder's name goes under its arrow: feeders stand side by side under a busbar.
          label: symbol === 'feeder' ? belowLabel : labelAttrs,
          value: valueAttrs,
        },
      },
      true,
    );
  }
  Graph.registerNode(
    shapeOf('busbar'),
    {
      ...common('busbar'),
      markup: [
        { tagName: 'rect', selector: 'halo' },
        { tagName: 'rect', selector: 'body' },
        { tagName: 'text', selector: 'label' },
        { tagName: 'text', selector: 'value' },
      ],
      attrs: {
        halo,
        body: { refWidth: '100%', refHeight: '100%', fill: COLOURS.dead, stroke: 'none' },
        // Name above on the left, loss above on the right: what hangs from a busbar is below it.
        label: { ...labelAttrs, refX: 0, refY: -6, textAnchor: 'start', textVerticalAnchor: 'bottom' },
        value: {
          ...valueAttrs,
          refX: '100%',
          refX2: 0,
          refY: -6,
          textAnchor: 'end',
          textVerticalAnchor: 'bottom',
        },
      },
    },
    true,
  );
}
