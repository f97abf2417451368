import type { BoardComponent, BoardPage, ChartType, ComponentLayout } from '@kilowatch/contract';
import { Space } from 'antd';
import {
  CardActions,
  CardTitle,
  ComponentCard,
  chartHeight,
  ReportGrid,
} from '../../../components/report-grid/index.ts';
import { usePlantCalendar } from '../../../lib/plant-calendar.ts';
import { DeviceTiles } from './DeviceTiles.tsx';

export interface PageGridProps {
  page: Pick<BoardPage, 'regionId' | 'successor' | 'categoryId'>;
  components: readonly BoardComponent[];
  /** The editor: drag, resize, edit and delete (and the comparison is saved). */
  writable: boolean;
  rowHeight?: number;
  /** Wall screen: the charts alone, no controls. */
  tv?: boolean;
  /** Any moment of the day the charts show (on the plant calendar): the screens pass now. */
  time: number;
  onLayout?: (changes: { id: number; layout: ComponentLayout }[]) => void;
  onEdit?: (component: BoardComponent) => void;
  onDelete?: (component: BoardComponent) => void;
  onCompare?: (component: BoardComponent, yoy: BoardComponent['yoy']) => void;
}

/**
 * A board page's components on the KPI reports' 12-column grid: charts are the KPI report
 * component cards over today (the same model and rendering), device tiles show the region's
 * devices now.
 */
export function PageGrid({
  page,
  components,
  writable,
  rowHeight,
  tv = false,
  time,
  onLayout,
  onEdit,
  onDelete,
  onCompare,
}: PageGridProps) {
  const calendar = usePlantCalendar();
  const height = (h: number) => chartHeight(h, rowHeight);
  const noop = () => {};

  const render = (c: BoardComponent) => {
    if (c.chartType === 'devices') {
      return (
        <DeviceTiles
          component={c}
          page={page}
          height={height(c.layout.h)}
          title={writable ? <CardTitle title={c.title} writable /> : undefined}
          tools={
            writable && (
              <Space size={4} className="kpi-no-drag">
                <CardActions onEdit={() => onEdit?.(c)} onDelete={() => onDelete?.(c)} />
              </Space>
            )
          }
        />
      );
    }
    return (
      <ComponentCard
        component={{ ...c, chartType: c.chartType as ChartType }}
        period="day"
        time={calendar.periodRange('day', time).start}
        height={height(c.layout.h)}
        writable={writable}
        controls={!tv}
        onEdit={() => onEdit?.(c)}
        onDelete={() => onDelete?.(c)}
        onCompare={(yoy) => onCompare?.(c, yoy)}
      />
    );
  };

  return (
    <ReportGrid
      components={components}
      writable={writable}
      rowHeight={rowHeight}
      onLayout={onLayout ?? noop}
      render={render}
    />
  );
}
