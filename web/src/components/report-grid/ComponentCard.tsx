import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import {
  type ComponentYoy,
  type Period,
  REPORT_COMPARISONS,
  type ReportComparison,
  type ReportComponent,
} from '@kilowatch/contract';
import {
  Alert,
  Card,
  Checkbox,
  DatePicker,
  Empty,
  Select,
  Space,
  Statistic,
  Tooltip,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type AlarmTarget, useTargetAlarmSpans } from '../../api/alarms.ts';
import { usePlantCalendar } from '../../lib/plant-calendar.ts';
import { BarChart, ChartFigure, formatValue, LineChart, PieChart } from '../charts/index.ts';
import { CardActions, CardTitle } from './CardTools.tsx';
import { componentSeries, metricTotals } from './component-series.ts';
import { useComponentData } from './use-component-data.ts';

/** Comparisons that can start on the same weekday (a shift by hours already keeps it). */
const ALIGNABLE: readonly ReportComparison[] = ['monthOnMonth', 'yearOnYear', 'date', 'base'];
const WITH_TIME: readonly ReportComparison[] = ['date', 'base'];

/** What a card draws: a report's component, or a board page's chart. */
export type GridComponent = Pick<
  ReportComponent,
  'id' | 'title' | 'chartType' | 'yoy' | 'params' | 'metrics'
>;

export interface ComponentCardProps {
  component: GridComponent;
  period: Period;
  time: number;
  /** Pixel height of the chart area (from the grid item's rows). */
  height: number;
  writable: boolean;
  onEdit: () => void;
  onDelete: () => void;
  onCompare: (yoy: ComponentYoy) => void;
  /** False on a wall screen: the chart alone, no comparison picker (default true). */
  controls?: boolean;
}

/**
 * The device or region whose alarms a component's chart marks; a region's metrics of one category
 * mark that category's devices only.
 */
export function alarmTarget(component: Pick<GridComponent, 'params' | 'metrics'>): AlarmTarget | null {
  const { thingId, regionId } = component.params;
  if (thingId != null) return { resourceType: 'thing', resourceId: thingId };
  if (regionId == null) return null;
  const categories = new Set(component.metrics.map((m) => m.categoryId ?? null));
  const only = categories.size === 1 ? [...categories][0] : null;
  return { resourceType: 'region', resourceId: regionId, categoryId: only ?? null };
}

/**
 * One component of the grid: its chart over the report's period, with the comparison chosen on
 * the card (yesterday, last week, month on month, year on year, a chosen date, a base period;
 * same-weekday alignment as an option), computed by the server's query.
 */
export function ComponentCard({
  component,
  period,
  time,
  height,
  writable,
  onEdit,
  onDelete,
  onCompare,
  controls = true,
}: ComponentCardProps) {
  const { t } = useTranslation();
  const calendar = usePlantCalendar();
  // A reader (or a published report) compares on screen only; an editor's choice is saved.
  const [shown, setShown] = useState<ComponentYoy | null>(null);
  const yoy = writable ? component.yoy : (shown ?? component.yoy);
  const compared = useMemo(() => ({ ...component, yoy }), [component, yoy]);
  const { answers, loading, error, hasTarget } = useComponentData(compared, period, time);
  const compare = (next: ComponentYoy) => (writable ? onCompare(next) : setShown(next));
  const compareLabel =
    WITH_TIME.includes(yoy.option) && yoy.time != null
      ? `${t(`reportGrid.yoy.${yoy.option}`)} ${calendar.dateOf(yoy.time)}`
      : t(`reportGrid.yoy.${yoy.option}`);
  const series = useMemo(
    () => componentSeries(component.chartType, answers, { total: t('charts.total'), compare: compareLabel }),
    [component.chartType, answers, t, compareLabel],
  );
  const totals = useMemo(() => metricTotals(answers), [answers]);
  // The alarms of the component's device or region over the period, marked on its line and bars.
  const range = calendar.periodRange(period, time);
  const target = useMemo(() => alarmTarget(component), [component]);
  const charted = component.chartType === 'line' || component.chartType === 'bar';
  const alarms = useTargetAlarmSpans(charted ? target : null, range.start, range.end);

  const setOption = (option: ReportComparison) =>
    compare({
      option,
      ...(WITH_TIME.includes(option) ? { time: yoy.time ?? calendar.periodRange(period, time).start } : {}),
      ...(ALIGNABLE.includes(option) && yoy.align ? { align: true } : {}),
    });

  const body = () => {
    if (!hasTarget) return <Empty description={t('reportGrid.component.noTarget')} />;
    if (error) return <Alert type="error" showIcon message={t('reportGrid.component.loadFailed')} />;
    if (component.chartType === 'pie') {
      return (
        <>
          <PieChart
            items={totals.map((m) => ({ name: m.name, value: m.value }))}
            height={Math.max(120, height - (yoy.option === 'none' ? 0 : 28))}
            loading={loading}
          />
          {yoy.option !== 'none' && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {compareLabel}:{' '}
              {totals
                .map((m) => `${m.name} ${formatValue(m.compare)}${m.unit ? ` ${m.unit}` : ''}`)
                .join(' · ')}
            </Typography.Text>
          )}
        </>
      );
    }
    if (component.chartType === 'operation') {
      return (
        <Space wrap size="large" style={{ minHeight: height }} data-testid="kpi-operation">
          {totals.map((m) => (
            <div key={m.name}>
              <Statistic title={m.name} value={formatValue(m.value)} suffix={m.unit} loading={loading} />
              {yoy.option !== 'none' && (
                <Typography.Text type="secondary">
                  {compareLabel} {formatValue(m.compare)}
                  {m.change !== null && (
                    <Typography.Text
                      type={m.change >= 0 ? 'danger' : 'success'}
                      style={{ marginInlineStart: 6 }}
                    >
                      {m.change >= 0 ? <ArrowUpOutlined /> : <ArrowDownOutlined />}{' '}
                      {formatValue(Math.abs(m.change))}%
                    </Typography.Text>
                  )}
                </Typography.Text>
              )}
            </div>
          ))}
        </Space>
      );
    }
    const Chart = component.chartType === 'line' ? LineChart : BarChart;
    // The figure's name lists the series, so a screen reader hears the comparison too.
    return (
      <ChartFigure
        label={`${component.title} (${series.map((s) => s.name).join(', ')})`}
        count={series.length}
      >
        <Chart
          series={series}
          period={{ period, time }}
          height={height}
          loading={loading}
          legend
          alarms={alarms.data}
        />
      </ChartFigure>
    );
  };

  return (
    <Card
      size="small"
      data-testid={`kpi-component-${component.id}`}
      style={{ height: '100%' }}
      styles={{ body: { padding: 8 } }}
      title={<CardTitle title={component.title} writable={writable} />}
      extra={
        controls && (
          <Space size={4} className="kpi-no-drag">
            <Select
              size="small"
              style={{ width: 130 }}
              value={yoy.option}
              aria-label={t('reportGrid.yoy.label')}
              data-testid={`kpi-yoy-${component.id}`}
              options={REPORT_COMPARISONS.map((o) => ({ value: o, label: t(`reportGrid.yoy.${o}`) }))}
              onChange={setOption}
            />
            {WITH_TIME.includes(yoy.option) && (
              <DatePicker
                size="small"
                allowClear={false}
                value={yoy.time != null ? dayjs(calendar.dateOf(yoy.time)) : null}
                onChange={(d) =>
                  d &&
                  compare({
                    ...yoy,
                    time: calendar.periodRange(
                      'day',
                      calendar.fromWall(Date.UTC(d.year(), d.month(), d.date())),
                    ).start,
                  })
                }
              />
            )}
            {ALIGNABLE.includes(yoy.option) && (
              <Tooltip title={t('reportGrid.yoy.alignHelp')}>
                <Checkbox
                  checked={yoy.align === true}
                  onChange={(e) => compare({ ...yoy, align: e.target.checked })}
                >
                  {t('reportGrid.yoy.align')}
                </Checkbox>
              </Tooltip>
            )}
            {writable && <CardActions onEdit={onEdit} onDelete={onDelete} />}
          </Space>
        )
      }
    >
      {body()}
    </Card>
  );
}
