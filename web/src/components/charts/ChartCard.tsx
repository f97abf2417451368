import { Button, Card, Space } from 'antd';
import { type KeyboardEvent, type ReactNode, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { plantTimeZone } from '../../api/telemetry.ts';
import { axisStops } from './axis-walk.ts';
import { chartIn } from './chart-instance.ts';
import { ExportMenu, type ExportSource } from './export/ExportMenu.tsx';
import { seriesSheet } from './export/sheet.ts';
import type { ChartSeries } from './series.ts';
import { limitSeries } from './top-n.ts';

/** The series as a chart draws them: past 10, the largest and one "others" per metric. */
export function useShownSeries(series: readonly ChartSeries[]): ChartSeries[] {
  const { t } = useTranslation();
  return useMemo(
    () => limitSeries(series, { othersName: (count) => t('charts.others', { count }) }),
    [series, t],
  );
}

/** The labels of a series sheet in the user's language. */
export function useSheetLabels() {
  const { t } = useTranslation();
  return useMemo(
    () => ({
      time: t('charts.export.time'),
      incomplete: t('charts.incomplete'),
      missing: (series: string, names: string) => t('charts.missingIn', { series, names }),
    }),
    [t],
  );
}

/**
 * A chart that keyboard and screen-reader users reach: focusable, named by its card's title,
 * and the arrow keys walk the tooltip over the points (Escape hides it).
 */
export function ChartFigure({
  label,
  count,
  children,
}: {
  label: string;
  count: number;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const index = useRef(-1);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const chart = chartIn(ref.current);
    if (!chart) return;
    if (e.key === 'Escape') {
      chart.dispatchAction({ type: 'hideTip' });
      return;
    }
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    e.preventDefault();
    const option = chart.getOption() as {
      series?: { data?: unknown[] }[];
      xAxis?: { type?: string; data?: unknown[] }[];
    };
    const axis = option.xAxis?.[0];
    const stops = axisStops(
      (option.series ?? []) as Parameters<typeof axisStops>[0],
      axis?.type === 'category' ? axis.data : undefined,
    );
    if (!stops.length) return;
    index.current = Math.min(stops.length - 1, Math.max(0, index.current + step));
    chart.dispatchAction({ type: 'showTip', ...stops[index.current] });
  };
  return (
    <div
      ref={ref}
      role="img"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: keyboard users reach the chart to walk its points.
      tabIndex={0}
      aria-label={t('charts.a11y.chart', { title: label, count })}
      onKeyDown={onKeyDown}
      onBlur={() => chartIn(ref.current)?.dispatchAction({ type: 'hideTip' })}
      className="kw-chart-figure"
    >
      {children}
    </div>
  );
}

export interface ChartCardProps {
  /** The card's title, also the chart's and the file's name: `功率 (kW)`. */
  title: string;
  /** The series as drawn (see useShownSeries), for the CSV/xlsx export. */
  series: ChartSeries[];
  timeZone?: string | undefined;
  /** Shown before the export button (e.g. the latest value). */
  extra?: ReactNode;
  /** Makes the title a link to a detail view. */
  onOpen?: () => void;
  children: ReactNode;
  'data-testid'?: string;
}

/**
 * A chart in a card with its export menu (CSV, xlsx, PNG). The title is plain text or, with
 * `onOpen`, a real button whose name is its text — never a card-sized link with a name of its own.
 */
export function ChartCard({ title, series, timeZone, extra, onOpen, children, ...rest }: ChartCardProps) {
  const body = useRef<HTMLDivElement>(null);
  const labels = useSheetLabels();
  const source: ExportSource = {
    title,
    timeZone,
    sheet: () => seriesSheet(title, series, labels, timeZone || plantTimeZone()),
    chart: () => body.current,
  };
  return (
    <Card
      size="small"
      data-testid={rest['data-testid']}
      title={
        onOpen ? (
          <Button type="link" onClick={onOpen} style={{ padding: 0, height: 'auto' }}>
            {title}
          </Button>
        ) : (
          title
        )
      }
      extra={
        <Space size={8}>
          {extra}
          <ExportMenu source={source} disabled={!series.some((s) => s.points.length)} />
        </Space>
      }
    >
      {/* The plot opens the detail too, for the mouse; keyboard users have the title button. */}
      {/* biome-ignore lint/a11y/noStaticElementInteractions: a mouse shortcut of the title button. */}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: the title button is the keyboard way. */}
      <div ref={body} onClick={onOpen} style={onOpen ? { cursor: 'pointer' } : undefined}>
        <ChartFigure label={title} count={series.length}>
          {children}
        </ChartFigure>
      </div>
    </Card>
  );
}
