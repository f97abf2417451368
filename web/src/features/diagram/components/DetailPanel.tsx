import type { DiagramGraph, DiagramNode, EffectiveAbility } from '@kilowatch/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Descriptions, Empty, Segmented, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAlarmSpans } from '../../../api/alarms.ts';
import { keys } from '../../../api/keys.ts';
import { fetchMetricData } from '../../../api/telemetry.ts';
import {
  type ChartOption,
  EChart,
  useAlarmMarkClick,
  useAlarmMarkWords,
} from '../../../components/charts/index.ts';
import { usePlantCalendar } from '../../../lib/plant-calendar.ts';
import { imbalanceTrend, lossTrend, PHASES, type Point } from '../lib/electrical.ts';
import type { NodeView } from '../lib/live-view.ts';
import { busbarMembers, type Latest } from '../lib/topology.ts';
import { type TrendLine, trendOption } from '../lib/trend-option.ts';
import { formatValue } from './format.ts';

/** The trend's span and bucket: the last 24 h in quarter hours. */
const SPANS = { '24h': 24 * 3600_000, '7d': 7 * 24 * 3600_000 } as const;
type Span = keyof typeof SPANS;
/** Alarms are asked over whole 5 minutes, so the trend does not ask anew on each render. */
const ALARM_SPAN_STEP = 5 * 60_000;

interface Series {
  thingId: number;
  metric: string;
}

/** History of several metrics on the same buckets, averaged per bucket. */
function useHistory(series: readonly Series[], span: Span) {
  return useQuery({
    queryKey: [...keys.telemetry.all, 'diagram-trend', series, span],
    queryFn: async () => {
      const end = Date.now();
      const start = end - SPANS[span];
      return Promise.all(
        series.map(async ({ thingId, metric }) =>
          (
            await fetchMetricData({
              resourceType: 'thing',
              resourceId: thingId,
              metricIdentifier: metric,
              aggregator: 'avg',
              startTime: start,
              endTime: end,
              groupByTime: 'minute',
              groupByInterval: span === '24h' ? 15 : 60,
            })
          ).result.map((p): Point => ({ key: p.key, value: p.value })),
        ),
      );
    },
    enabled: series.length > 0,
  });
}

export interface DetailPanelProps {
  graph: DiagramGraph;
  node: DiagramNode;
  view: NodeView | undefined;
  latest: Latest;
  abilities: ReadonlyMap<number, readonly EffectiveAbility[]>;
}

/** A symbol clicked while monitoring: its live values, loss or imbalance, and their trend. */
export function DetailPanel({ graph, node, view, latest, abilities }: DetailPanelProps) {
  const { t } = useTranslation();
  const calendar = usePlantCalendar();
  const [span, setSpan] = useState<Span>('24h');
  const members = useMemo(
    () => (node.symbol === 'busbar' ? busbarMembers(graph, node.id) : []),
    [graph, node],
  );
  const binding = node.binding;
  const own = binding ? abilities.get(binding.thingId) : undefined;
  const phases = useMemo(
    () =>
      (Object.keys(PHASES) as (keyof typeof PHASES)[]).filter((q) =>
        PHASES[q].every((m) => (own ?? []).some((a) => a.identifier === m)),
      ),
    [own],
  );
  const series: Series[] = useMemo(
    () =>
      node.symbol === 'busbar'
        ? [...members.filter((m) => m.flow === 'in'), ...members.filter((m) => m.flow === 'out')].map(
            (m) => ({
              thingId: m.node.binding!.thingId,
              metric: m.node.binding!.power!,
            }),
          )
        : binding
          ? phases.flatMap((q) => PHASES[q].map((metric) => ({ thingId: binding.thingId, metric })))
          : [],
    [node, members, binding, phases],
  );
  const history = useHistory(series, span);
  // The alarms of the trend's devices over its span, marked on its buckets (a click opens one).
  const things = useMemo(() => [...new Set(series.map((x) => x.thingId))], [series]);
  const spanEnd = Math.ceil(Date.now() / ALARM_SPAN_STEP) * ALARM_SPAN_STEP;
  const spans = useAlarmSpans(things, spanEnd - SPANS[span] - ALARM_SPAN_STEP, spanEnd);
  const markWords = useAlarmMarkWords();
  const onClick = useAlarmMarkClick();

  const option = useMemo((): ChartOption | null => {
    const data = history.data;
    if (!data) return null;
    const time = (key: number) => calendar.format(key, 'MM-DD HH:mm');
    const lines: TrendLine[] = [];
    if (node.symbol === 'busbar') {
      const nIn = members.filter((m) => m.flow === 'in').length;
      lines.push({
        name: t('diagram.lossPct'),
        points: lossTrend(data.slice(0, nIn), data.slice(nIn)).map((p) => ({ key: p.key, value: p.lossPct })),
      });
    } else {
      phases.forEach((q, i) => {
        const [a, b, c] = data.slice(i * 3, i * 3 + 3) as [Point[], Point[], Point[]];
        lines.push({
          name: t(`diagram.imbalance.${q}`),
          points: imbalanceTrend([a, b, c]).map((p) => ({ key: p.key, value: p.imbalancePct })),
        });
      });
    }
    return trendOption({
      lines,
      threshold: node.symbol === 'busbar' ? graph.thresholds.lossPct : graph.thresholds.imbalancePct,
      thresholdLabel: t('diagram.threshold'),
      time,
      alarms: spans.data ?? [],
      marks: markWords,
      now: Date.now(),
    });
  }, [history.data, node, members, phases, graph.thresholds, calendar, t, spans.data, markWords]);

  const unitOf = (thingId: number, metric: string) =>
    abilities.get(thingId)?.find((a) => a.identifier === metric)?.unit ?? '';
  const loss = view?.loss;

  return (
    <div data-testid="diagram-detail">
      <Typography.Title level={5}>
        {node.label || t(`diagram.symbol.${node.symbol}`)}{' '}
        {view?.alarm && <Tag color="red">{t('diagram.alarm')}</Tag>}
      </Typography.Title>
      {binding && (
        <Descriptions size="small" column={1} bordered>
          {(abilities.get(binding.thingId) ?? [])
            .filter((a) => binding.shown.includes(a.identifier) || a.identifier === binding.power)
            .map((a) => (
              <Descriptions.Item key={a.identifier} label={a.name}>
                {formatValue(latest(binding.thingId, a.identifier), a.unit)}
              </Descriptions.Item>
            ))}
          {view?.state && (
            <Descriptions.Item label={t('diagram.status')}>
              {t(`diagram.state.${view.state}`)}
            </Descriptions.Item>
          )}
        </Descriptions>
      )}
      {node.symbol === 'busbar' && (
        <>
          <Descriptions
            size="small"
            column={1}
            bordered
            style={{ marginTop: 8 }}
            data-testid="diagram-loss-detail"
          >
            {members.map((m) => (
              <Descriptions.Item
                key={m.node.id}
                label={`${m.flow === 'in' ? t('diagram.flowIn') : t('diagram.flowOut')} · ${m.node.label || m.node.id}`}
              >
                {formatValue(
                  latest(m.node.binding!.thingId, m.node.binding!.power!),
                  unitOf(m.node.binding!.thingId, m.node.binding!.power!),
                )}
              </Descriptions.Item>
            ))}
            <Descriptions.Item label={t('diagram.loss')}>
              {loss
                ? `${loss.lossKw.toFixed(2)} kW · ${loss.lossPct === null ? '—' : `${loss.lossPct.toFixed(2)} %`}`
                : '—'}
            </Descriptions.Item>
          </Descriptions>
          {loss?.flagged && (
            <Alert
              type="error"
              showIcon
              style={{ marginTop: 8 }}
              title={t('diagram.lossFlagged', { pct: graph.thresholds.lossPct })}
            />
          )}
          {members.length === 0 && (
            <Alert type="info" style={{ marginTop: 8 }} title={t('diagram.noMembers')} />
          )}
        </>
      )}
      {phases.length > 0 && (
        <Descriptions size="small" column={1} bordered style={{ marginTop: 8 }}>
          {phases.map((q) => (
            <Descriptions.Item key={q} label={t(`diagram.imbalance.${q}`)}>
              {view?.imbalance[q] ? `${view.imbalance[q].pct.toFixed(2)} %` : '—'}
              {view?.imbalance[q]?.flagged && (
                <Tag color="red" style={{ marginLeft: 8 }}>
                  {t('diagram.overThreshold', { pct: graph.thresholds.imbalancePct })}
                </Tag>
              )}
            </Descriptions.Item>
          ))}
        </Descriptions>
      )}
      {series.length > 0 && (
        <>
          <Segmented
            style={{ margin: '12px 0 4px' }}
            size="small"
            value={span}
            onChange={(v) => setSpan(v as Span)}
            options={[
              { value: '24h', label: t('diagram.span24h') },
              { value: '7d', label: t('diagram.span7d') },
            ]}
          />
          {option ? (
            <EChart
              option={option}
              height={220}
              loading={history.isFetching}
              onClick={onClick}
              data-testid="diagram-trend"
            />
          ) : history.isError ? (
            <Alert type="error" title={t('diagram.trendFailed')} />
          ) : (
            <EChart option={{}} height={220} loading />
          )}
        </>
      )}
      {!binding && node.symbol !== 'busbar' && (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('diagram.notBound')} />
      )}
    </div>
  );
}
