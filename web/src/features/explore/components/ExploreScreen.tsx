import { PlusOutlined, ReloadOutlined, RollbackOutlined, ZoomOutOutlined } from '@ant-design/icons';
import {
  EXPLORE_QUICK_RANGES,
  type ExploreQuickRange,
  type ExploreRange,
  type ExploreState,
  MAX_EXPLORE_PANELS,
} from '@kilowatch/contract';
import { Alert, Button, Card, DatePicker, Empty, Segmented, Space, Switch, Tooltip, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { fromPicker, toPicker, usePlantCalendar } from '../../../lib/plant-calendar.ts';
import { useExploreCatalog } from '../hooks/catalog.ts';
import {
  addPanel,
  addSeries,
  allSeries,
  isRelative,
  movePanel,
  parseState,
  removePanel,
  removeSeries,
  resolveRange,
  stateParams,
  zoomBack,
  zoomIn,
} from '../lib/state.ts';
import { panelGrid } from './ExploreChart.tsx';
import styles from './explore.module.css';
import { PanelCard } from './PanelCard.tsx';
import { ViewsBar } from './ViewsBar.tsx';

/** How often a live range that ends now moves on. */
const LIVE_REFRESH_MS = 30_000;

/**
 * /energy_monitor/explore (docs/explore.md): panels of any devices' and regions' metrics stacked
 * over one time range, drag-to-zoom on any panel for all, a crosshair shared by all, and the
 * whole as a saved view of the user's own. The panels and range live in the address.
 */
export default function ExploreScreen() {
  const { t } = useTranslation();
  const calendar = usePlantCalendar();
  const [params, setParams] = useSearchParams();
  const { state, viewId } = useMemo(() => parseState(params), [params]);
  const [anchor, setAnchor] = useState(() => Date.now());
  const [back, setBack] = useState<ExploreRange[]>([]);
  const [live, setLive] = useState(false);
  const range = useMemo(() => resolveRange(state.range, anchor), [state.range, anchor]);
  const series = useMemo(() => allSeries(state), [state]);
  const catalog = useExploreCatalog(series);

  // The latest state asked for, ahead of the render that parses it back from the address: every
  // change starts from it (two clicks of 添加面板 before the screen rendered again each added to
  // the render's state, and one panel was lost).
  const stateRef = useRef(state);
  stateRef.current = state;
  const show = useCallback(
    (next: ExploreState, view: number | null = viewId) => {
      stateRef.current = next;
      setParams(stateParams(next, view), { replace: true });
    },
    [setParams, viewId],
  );
  /** A change made to the latest state asked for (see stateRef). */
  const change = (fn: (latest: ExploreState) => ExploreState) => show(fn(stateRef.current));
  const setRange = (next: ExploreRange) => {
    setAnchor(Date.now());
    change((s) => ({ ...s, range: next }));
  };

  // One drag reaches every connected panel (echarts.connect mirrors the brush): one zoom.
  const zooming = useRef(false);
  const backRef = useRef(back);
  backRef.current = back;
  const onZoom = useCallback(
    (start: number, end: number) => {
      if (zooming.current) return;
      zooming.current = true;
      queueMicrotask(() => {
        zooming.current = false;
      });
      const next = zoomIn(stateRef.current.range, backRef.current, start, end);
      setBack(next.back);
      show({ ...stateRef.current, range: next.range });
    },
    [show],
  );

  const relative = isRelative(state.range);
  useEffect(() => {
    if (!live || !relative) return;
    const timer = setInterval(() => setAnchor(Date.now()), LIVE_REFRESH_MS);
    return () => clearInterval(timer);
  }, [live, relative]);

  const units = useMemo(
    () => state.panels.map((p) => new Set(p.series.map((s) => catalog.abilityOf(s)?.unit ?? '')).size),
    [state.panels, catalog],
  );
  // Keyed by the counts' text: the margins change only when a panel's units do.
  const unitKey = units.join(',');
  const grid = useMemo(() => panelGrid(unitKey.split(',').map(Number)), [unitKey]);
  const full = state.panels.length >= MAX_EXPLORE_PANELS;
  const addPanelButton = (
    <Tooltip title={full ? t('explore.panelsMax', { max: MAX_EXPLORE_PANELS }) : undefined}>
      <Button
        icon={<PlusOutlined />}
        disabled={full}
        onClick={() => change(addPanel)}
        data-testid="explore-add-panel"
      >
        {t('explore.addPanel')}
      </Button>
    </Tooltip>
  );

  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }}>
      <Card size="small" aria-label={t('explore.toolbar')}>
        {/* Scrolls sideways on a phone instead of widening the page. */}
        <div className={styles.quick}>
          <Segmented<ExploreQuickRange | 'custom'>
            aria-label={t('explore.quickRange')}
            value={'last' in state.range ? state.range.last : 'custom'}
            options={[
              ...EXPLORE_QUICK_RANGES.map((r) => ({ value: r, label: t(`explore.quick.${r}`) })),
              { value: 'custom', label: t('explore.custom'), disabled: true },
            ]}
            onChange={(value) => {
              if (value === 'custom') return;
              setBack([]);
              setRange({ last: value });
            }}
          />
        </div>
        <Space wrap size={[8, 8]} style={{ marginTop: 8 }}>
          <DatePicker.RangePicker
            showTime={{ format: 'HH:mm' }}
            format="YYYY-MM-DD HH:mm"
            style={{ width: 330, maxWidth: '100%' }}
            aria-label={t('explore.custom')}
            value={[toPicker(calendar, range.start), toPicker(calendar, range.end)]}
            allowClear={false}
            onChange={(values) => {
              const [from, to] = (values ?? []) as (Dayjs | null)[];
              if (!from || !to) return;
              const start = fromPicker(calendar, from);
              const end = fromPicker(calendar, to);
              if (end > start) {
                setBack([]);
                setRange({ start, end });
              }
            }}
          />
          <Button
            icon={<RollbackOutlined />}
            disabled={!back.length}
            onClick={() => {
              const previous = zoomBack(back);
              if (!previous) return;
              setBack(previous.back);
              setRange(previous.range);
            }}
          >
            {t('explore.back')}
          </Button>
          <Button
            icon={<ZoomOutOutlined />}
            disabled={!back.length}
            onClick={() => {
              const first = back[0];
              if (!first) return;
              setBack([]);
              setRange(first);
            }}
          >
            {t('explore.reset')}
          </Button>
          <Tooltip title={t('explore.liveHint', { seconds: LIVE_REFRESH_MS / 1000 })}>
            <Space size={4}>
              <Switch
                size="small"
                checked={live && relative}
                disabled={!relative}
                onChange={setLive}
                aria-label={t('explore.live')}
              />
              <Typography.Text type={relative ? undefined : 'secondary'}>{t('explore.live')}</Typography.Text>
            </Space>
          </Tooltip>
          <Button icon={<ReloadOutlined />} onClick={() => setAnchor(Date.now())}>
            {t('explore.refresh')}
          </Button>
        </Space>
        <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
          <span data-testid="explore-range">
            {calendar.format(range.start, 'YYYY-MM-DD HH:mm')} ~{' '}
            {calendar.format(range.end, 'YYYY-MM-DD HH:mm')}
          </span>
          {state.panels.length > 0 && <> · {t('explore.zoomHint')}</>}
        </Typography.Paragraph>
      </Card>
      <ViewsBar
        state={state}
        viewId={viewId}
        onOpen={(next, id) => {
          setBack([]);
          setAnchor(Date.now());
          show(next, id);
        }}
        extra={addPanelButton}
      />
      {catalog.error && (
        <Alert type="error" showIcon title={t('explore.catalogFailed', { reason: catalog.error.message })} />
      )}
      {state.panels.length === 0 ? (
        <Card>
          <Empty description={t('explore.empty')} data-testid="explore-empty">
            <Button type="primary" icon={<PlusOutlined />} onClick={() => change(addPanel)}>
              {t('explore.addPanel')}
            </Button>
          </Empty>
        </Card>
      ) : (
        state.panels.map((panel, i) => (
          <PanelCard
            // Panels have no identity of their own; their place is what the user sees.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            key={i}
            index={i}
            count={state.panels.length}
            panel={panel}
            range={range}
            catalog={catalog}
            grid={grid}
            actions={{
              onAdd: (added) => change((s) => addSeries(s, i, added)),
              onRemoveSeries: (key) => change((s) => removeSeries(s, i, key)),
              onMove: (by) => change((s) => movePanel(s, i, by)),
              onRemove: () => change((s) => removePanel(s, i)),
              onZoom,
            }}
          />
        ))
      )}
    </Space>
  );
}
