import { type ComponentLayout, REPORT_GRID_COLS } from '@kilowatch/contract';
import { useMemo } from 'react';
import ReactGridLayout, { type Layout, useContainerWidth } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';

/** Row height and gaps of the grid, in pixels. */
const ROW_HEIGHT = 40;
const MARGIN = 12;
/** Below this width (a phone) the components stack in one column, in reading order, fixed. */
const STACK_BELOW = 576;
/** The card's title bar and padding above a chart. */
const CARD_CHROME = 58;

/** Chart height inside an item `h` rows tall. */
export const chartHeight = (h: number, rowHeight = ROW_HEIGHT) =>
  Math.max(80, h * rowHeight + (h - 1) * MARGIN - CARD_CHROME);

export interface ReportGridProps<C extends { id: number; layout: ComponentLayout }> {
  components: readonly C[];
  writable: boolean;
  /** After a drag or resize: every component whose place changed. */
  onLayout: (changes: { id: number; layout: ComponentLayout }[]) => void;
  render: (component: C) => React.ReactNode;
  /** Row height in pixels (a TV's board fills its screen with taller rows). */
  rowHeight?: number;
}

/**
 * The saved places as a phone shows them: each component the whole width, in reading order (top to
 * bottom, then left to right), its height kept.
 */
export function stackedLayout(layout: readonly ComponentLayout[]): ComponentLayout[] {
  const order = layout.map((l, i) => ({ l, i })).sort((a, b) => a.l.y - b.l.y || a.l.x - b.l.x);
  const out: ComponentLayout[] = [...layout];
  let y = 0;
  for (const { l, i } of order) {
    out[i] = { x: 0, y, w: REPORT_GRID_COLS, h: l.h };
    y += l.h;
  }
  return out;
}

/**
 * The report's components on a 12-column grid (react-grid-layout): dragged by their handle and
 * resized from the corner when the report is writable; the places are saved once the hand lets go.
 * On a phone they stack in one column and stay put (stackedLayout), and nothing is saved.
 */
export function ReportGrid<C extends { id: number; layout: ComponentLayout }>({
  components,
  writable,
  onLayout,
  render,
  rowHeight = ROW_HEIGHT,
}: ReportGridProps<C>) {
  // Measured before the grid first renders: at the default 1280 px its charts were drawn too wide
  // and redrawn at the card's width a moment later (a flash on every report and board page).
  const { width, containerRef, mounted } = useContainerWidth({ measureBeforeMount: true });
  const stacked = width < STACK_BELOW;
  const movable = writable && !stacked;
  const layout = useMemo<Layout>(() => {
    const places = components.map((c) => c.layout);
    const shown = stacked ? stackedLayout(places) : places;
    return components.map((c, i) => ({ i: String(c.id), ...(shown[i] ?? c.layout), minW: 2, minH: 3 }));
  }, [components, stacked]);

  const settle = (next: Layout) => {
    const before = new Map(components.map((c) => [String(c.id), c.layout]));
    const changes = next
      .filter((item) => {
        const was = before.get(item.i);
        return was && (was.x !== item.x || was.y !== item.y || was.w !== item.w || was.h !== item.h);
      })
      .map((item) => ({ id: Number(item.i), layout: { x: item.x, y: item.y, w: item.w, h: item.h } }));
    if (changes.length > 0) onLayout(changes);
  };

  return (
    <div ref={containerRef} data-testid="kpi-grid">
      {mounted && (
        <ReactGridLayout
          width={width}
          layout={layout}
          gridConfig={{
            cols: REPORT_GRID_COLS,
            rowHeight,
            margin: [MARGIN, MARGIN],
            containerPadding: [0, 0],
          }}
          dragConfig={{ enabled: movable, handle: '.kpi-drag', cancel: '.kpi-no-drag' }}
          resizeConfig={{ enabled: movable }}
          onDragStop={(next) => settle(next)}
          onResizeStop={(next) => settle(next)}
        >
          {components.map((c) => (
            <div key={String(c.id)}>{render(c)}</div>
          ))}
        </ReactGridLayout>
      )}
    </div>
  );
}
