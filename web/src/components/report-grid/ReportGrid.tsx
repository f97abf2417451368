import { type ComponentLayout, REPORT_GRID_COLS } from '@kilowatch/contract';
import { useMemo } from 'react';
import ReactGridLayout, { type Layout, useContainerWidth } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';

/** Row height and gaps of the grid, in pixels. */
export const ROW_HEIGHT = 40;
const MARGIN = 12;
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
 * The report's components on a 12-column grid (react-grid-layout): dragged by their handle and
 * resized from the corner when the report is writable; the places are saved once the hand lets go.
 */
export function ReportGrid<C extends { id: number; layout: ComponentLayout }>({
  components,
  writable,
  onLayout,
  render,
  rowHeight = ROW_HEIGHT,
}: ReportGridProps<C>) {
  const { width, containerRef, mounted } = useContainerWidth();
  const layout = useMemo<Layout>(
    () => components.map((c) => ({ i: String(c.id), ...c.layout, minW: 2, minH: 3 })),
    [components],
  );

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
          dragConfig={{ enabled: writable, handle: '.kpi-drag', cancel: '.kpi-no-drag' }}
          resizeConfig={{ enabled: writable }}
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
