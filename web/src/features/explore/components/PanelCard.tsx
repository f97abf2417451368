import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { ExplorePanel } from '@kilowatch/contract';
import { MAX_EXPLORE_SERIES } from '@kilowatch/contract';
import { Alert, Button, Card, Empty, Space, Tag, Tooltip, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAlarmSpans } from '../../../api/alarms.ts';
import { ChartFigure } from '../../../components/charts/ChartCard.tsx';
import { leaveOutRunning } from '../../../components/charts/labels.ts';
import { paletteColor } from '../../../components/charts/theme.ts';
import type { ExploreCatalog } from '../hooks/catalog.ts';
import { usePanelSeries } from '../hooks/panel.ts';
import { resourceName, seriesThings } from '../lib/catalog.ts';
import { seriesKey } from '../lib/state.ts';
import { ExploreChart, type PanelGrid } from './ExploreChart.tsx';
import styles from './explore.module.css';
import { SeriesPicker } from './SeriesPicker.tsx';

export interface PanelActions {
  onAdd: (series: ExplorePanel['series']) => void;
  onRemoveSeries: (key: string) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
  onZoom: (start: number, end: number) => void;
}

/** One stacked panel: its series as removable tags, the chart over the shared range, its actions. */
export function PanelCard({
  index,
  count,
  panel,
  range,
  catalog,
  grid,
  actions,
}: {
  index: number;
  count: number;
  panel: ExplorePanel;
  range: { start: number; end: number };
  catalog: ExploreCatalog;
  grid: PanelGrid;
  actions: PanelActions;
}) {
  const { t } = useTranslation();
  const [picking, setPicking] = useState(false);
  const n = index + 1;
  const { lines, fetching, error } = usePanelSeries(panel.series, range, catalog);
  const drawn = useMemo(() => leaveOutRunning(lines), [lines]);
  const things = useMemo(
    () => [...new Set(panel.series.flatMap((s) => seriesThings(s, catalog.index)))],
    [panel.series, catalog.index],
  );
  const alarms = useAlarmSpans(things, range.start, range.end);
  const gone = catalog.pending ? [] : panel.series.filter((s) => !catalog.abilityOf(s));
  const full = panel.series.length >= MAX_EXPLORE_SERIES;
  const title = t('explore.panel', { n });

  return (
    <Card
      size="small"
      title={title}
      data-testid={`explore-panel-${n}`}
      extra={
        <Space size={4} aria-label={t('explore.panelActions', { n })}>
          <Tooltip title={full ? t('explore.seriesMax', { max: MAX_EXPLORE_SERIES }) : undefined}>
            <Button size="small" icon={<PlusOutlined />} disabled={full} onClick={() => setPicking(true)}>
              {t('explore.addSeries')}
            </Button>
          </Tooltip>
          <Button
            size="small"
            icon={<ArrowUpOutlined />}
            disabled={index === 0}
            aria-label={t('explore.moveUp')}
            title={t('explore.moveUp')}
            onClick={() => actions.onMove(-1)}
          />
          <Button
            size="small"
            icon={<ArrowDownOutlined />}
            disabled={index === count - 1}
            aria-label={t('explore.moveDown')}
            title={t('explore.moveDown')}
            onClick={() => actions.onMove(1)}
          />
          <Button
            size="small"
            danger
            icon={<DeleteOutlined />}
            aria-label={t('explore.removePanel')}
            title={t('explore.removePanel')}
            onClick={actions.onRemove}
          />
        </Space>
      }
    >
      {panel.series.length > 0 && (
        <Space size={[4, 4]} wrap style={{ marginBottom: 8 }} data-testid="explore-series">
          {panel.series.map((s, i) => {
            const ability = catalog.abilityOf(s);
            const name = `${resourceName(s, catalog.index)} · ${ability?.name ?? s.metric}`;
            return (
              <Tag
                key={seriesKey(s)}
                closable={{ 'aria-label': t('explore.removeSeries', { name }) }}
                onClose={(e) => {
                  e.preventDefault();
                  actions.onRemoveSeries(seriesKey(s));
                }}
              >
                <span className={styles.dot} style={{ background: paletteColor(i) }} />
                {ability?.unit ? `${name} (${ability.unit})` : name}
              </Tag>
            );
          })}
        </Space>
      )}
      {gone.length > 0 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 8 }}
          title={gone
            .map((s) => t('explore.gone', { name: resourceName(s, catalog.index), metric: s.metric }))
            .join('; ')}
        />
      )}
      {error && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 8 }}
          title={t('explore.loadFailed', { reason: error.message })}
        />
      )}
      {panel.series.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('explore.emptyPanel')}>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setPicking(true)}>
            {t('explore.addSeries')}
          </Button>
        </Empty>
      ) : (
        <ChartFigure label={title} count={drawn.series.length}>
          <ExploreChart
            series={drawn.series}
            window={range}
            grid={grid}
            alarms={alarms.data}
            loading={fetching && !lines.length}
            onZoom={actions.onZoom}
          />
        </ChartFigure>
      )}
      {drawn.left && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="running-left-out">
          {t('charts.runningLeftOut')}
        </Typography.Text>
      )}
      <SeriesPicker
        open={picking}
        panel={n}
        catalog={catalog}
        onAdd={(series) => {
          actions.onAdd(series);
          setPicking(false);
        }}
        onClose={() => setPicking(false)}
      />
    </Card>
  );
}
