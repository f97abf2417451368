import { DownloadOutlined, FilterOutlined } from '@ant-design/icons';
import type { Period, RegionNode, StatisticsQuery, StatisticsTarget } from '@kilowatch/contract';
import { useQueries } from '@tanstack/react-query';
import {
  Button,
  Card,
  Col,
  DatePicker,
  Empty,
  Row,
  Segmented,
  Select,
  Space,
  Statistic,
  Table,
  TreeSelect,
  Typography,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRegionTree } from '../../../../api/regions.ts';
import { useFilterGroups, useStatistics, useStatisticsConfig } from '../../../../api/statistics.ts';
import { categoryAbilitiesQuery, METADATA_STALE_MS, useCategoryOptions } from '../../../../api/things.ts';
import { abilityLabel, EChart, useChartTheme } from '../../../../components/charts/index.ts';
import { fromPicker, toPicker, usePlantCalendar } from '../../../../lib/plant-calendar.ts';
import { isAdmin, isGranted, useSession } from '../../../../lib/session.ts';
import { circleOption, statisticsOption } from '../lib/chart.ts';
import {
  COMPARE_OPTIONS,
  type CompareOption,
  chunks,
  compareOf,
  DEFAULT_PERIOD,
  DEFAULT_RANGE,
  format2,
  hasData,
  isCircleMetric,
  presetTime,
  RANGE_PRESETS,
  type RangePreset,
  topRows,
} from '../lib/statistics.ts';
import { ExportDialog } from './ExportDialog.tsx';
import { FilterGroupsDialog } from './FilterGroupsDialog.tsx';

const PICKER = { day: 'date', month: 'month', year: 'year' } as const;
/** The route whose grant lets a user edit filter groups (the server checks the same). */
const STATISTICS_GRANT = '/analysis/report';

interface TreeOption {
  value: string;
  title: string;
  selectable?: boolean;
  children?: TreeOption[];
}

/** The region tree as picker options: regions, or things under their regions. */
function treeOptions(nodes: readonly RegionNode[], target: 'thing' | 'region'): TreeOption[] {
  return nodes.map((n) =>
    n.resourceType === 'thing'
      ? { value: `thing:${n.thingId}`, title: n.name }
      : {
          value: `region:${n.id}`,
          title: n.name,
          selectable: target === 'region',
          children: treeOptions(n.children, target),
        },
  );
}

/** Categories in the order they were created: the plant's main meters usually come first. */
const byId = <C extends { id: number }>(list: readonly C[] | undefined): C[] =>
  [...(list ?? [])].sort((a, b) => a.id - b.id);

/** Every metric the screen offers: the config's, else every counter; status metrics never. */
function useMetricOptions() {
  const config = useStatisticsConfig();
  const categories = useCategoryOptions();
  const abilities = useQueries({
    queries: byId(categories.data).map((c) => ({
      ...categoryAbilitiesQuery(c.id),
      staleTime: METADATA_STALE_MS,
    })),
  });
  const key = abilities.map((a) => a.dataUpdatedAt).join(',');
  const items = config.data?.items;
  // biome-ignore lint/correctness/useExhaustiveDependencies: key stands for the answers
  return useMemo(() => {
    const seen = new Map<string, { name: string; unit: string }>();
    const ids = byId(categories.data).map((c) => c.id);
    abilities.forEach((a, i) => {
      const wanted = items?.length
        ? items.find((item) => item.categoryId === ids[i])?.identifiers
        : undefined;
      for (const ability of a.data ?? []) {
        if (isCircleMetric(ability.name) || seen.has(ability.identifier)) continue;
        const shown = items?.length ? wanted?.includes(ability.identifier) : ability.cumulative;
        if (shown) seen.set(ability.identifier, { name: ability.name, unit: ability.unit });
      }
    });
    // The metric most categories have first (a plant's energy counter), then in category order.
    const spread = (id: string) => abilities.filter((a) => a.data?.some((x) => x.identifier === id)).length;
    return [...seen]
      .map(([value, a]) => ({
        value,
        label: abilityLabel(a, value, [...seen.values()]),
        spread: spread(value),
      }))
      .sort((a, b) => b.spread - a.spread)
      .map(({ value, label }) => ({ value, label }));
  }, [key, items, categories.data]);
}

/**
 * /analysis/report: energy statistics of things, regions or a filter group by hour, day or
 * month of the plant's calendar, with the SUM line, a top list in chunks of 10, the running
 * circle and the exports (docs/statistics.md). Refreshes every 30 s.
 */
export default function ReportScreen() {
  const { t } = useTranslation();
  const calendar = usePlantCalendar();
  const theme = useChartTheme('full');
  const roles = useSession((s) => s.roles);
  const grants = useSession((s) => s.routes);
  const canEditGroups = isAdmin(roles) || isGranted(grants, STATISTICS_GRANT);

  const [target, setTarget] = useState<StatisticsTarget>('region');
  /** Null until the user picks: the plant (the root region) is shown first. */
  const [picked, setPicked] = useState<string[] | null>(null);
  const [groupId, setGroupId] = useState<number | null>(null);
  const [metric, setMetric] = useState<string | null>(null);
  const [period, setPeriod] = useState<Period>(DEFAULT_PERIOD);
  const [preset, setPreset] = useState<RangePreset>(DEFAULT_RANGE);
  const [chosen, setChosen] = useState<number | null>(null);
  const [compare, setCompare] = useState<CompareOption>('none');
  const [exporting, setExporting] = useState(false);
  const [groupsOpen, setGroupsOpen] = useState(false);
  const [topPage, setTopPage] = useState(0);

  const tree = useRegionTree({ withThings: target === 'thing' });
  const root = tree.data?.[0];
  const selected = picked ?? (root ? [`region:${root.id}`] : []);
  const groups = useFilterGroups();
  const metrics = useMetricOptions();
  const metricId = metric ?? metrics[0]?.value ?? null;

  // The plant's period turns over at its midnight; the key (and so the query) follows.
  const time = presetTime(preset, period, calendar.startOfDay(Date.now()) + 1, calendar, chosen);
  const ids =
    target === 'filterGroup'
      ? groupId === null
        ? []
        : [groupId]
      : selected.filter((v) => v.startsWith(`${target}:`)).map((v) => Number(v.split(':')[1]));
  const query: StatisticsQuery | null =
    metricId && ids.length
      ? {
          resourceType: target,
          resourceIds: ids,
          metricIdentifier: metricId,
          period,
          startTime: calendar.periodRange(period, time).start,
          circle: true,
          ...(compareOf(compare, period) ? { compare: compareOf(compare, period) } : {}),
        }
      : null;
  const data = useStatistics(query);
  const result = data.data;
  const shown = query !== null && hasData(result);
  const top = useMemo(() => (result ? topRows(result) : []), [result]);
  const pages = chunks(top);

  const chart = useMemo(
    () =>
      result
        ? statisticsOption(result, theme, { total: t('analysis.total'), compare: t('analysis.compareTotal') })
        : null,
    [result, theme, t],
  );
  const circle = result?.circle;

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Card size="small">
        <Space wrap>
          <Segmented<StatisticsTarget>
            value={target}
            onChange={(v) => {
              setTarget(v);
              setPicked([]);
            }}
            options={(['thing', 'region', 'filterGroup'] as const).map((v) => ({
              value: v,
              label: t(`analysis.target.${v}`),
            }))}
          />
          {target === 'filterGroup' ? (
            <Select<number>
              style={{ minWidth: 220 }}
              aria-label={t('analysis.pickGroup')}
              placeholder={t('analysis.pickGroup')}
              value={groupId ?? undefined}
              onChange={setGroupId}
              options={(groups.data ?? []).map((g) => ({ value: g.id, label: g.name, title: g.description }))}
              notFoundContent={t('analysis.noGroups')}
            />
          ) : (
            <TreeSelect
              style={{ minWidth: 280 }}
              aria-label={t(`analysis.pick.${target}`)}
              placeholder={t(`analysis.pick.${target}`)}
              multiple
              treeDefaultExpandAll
              maxTagCount="responsive"
              value={selected}
              onChange={(v: string[]) => setPicked(v)}
              treeData={treeOptions(tree.data ?? [], target)}
              showSearch
              treeNodeFilterProp="title"
            />
          )}
          <Select<string>
            style={{ minWidth: 200 }}
            aria-label={t('analysis.metric')}
            value={metricId ?? undefined}
            onChange={setMetric}
            options={metrics}
            placeholder={t('analysis.metric')}
          />
          <Segmented<Period>
            value={period}
            onChange={setPeriod}
            options={(['day', 'month', 'year'] as const).map((p) => ({
              value: p,
              label: t(`analysis.period.${p}`),
            }))}
          />
          <Select<RangePreset>
            style={{ width: 120 }}
            aria-label={t('analysis.range')}
            value={preset}
            onChange={setPreset}
            options={RANGE_PRESETS.map((p) => ({ value: p, label: t(`analysis.preset.${period}.${p}`) }))}
          />
          {preset === 'date' && (
            <DatePicker
              picker={PICKER[period]}
              allowClear={false}
              aria-label={t('analysis.date')}
              value={toPicker(calendar, calendar.startOfDay(time))}
              onChange={(d: Dayjs | null) => d && setChosen(calendar.startOfDay(fromPicker(calendar, d)))}
            />
          )}
          <Select<CompareOption>
            style={{ width: 130 }}
            aria-label={t('analysis.compare')}
            value={compare}
            onChange={setCompare}
            options={COMPARE_OPTIONS.map((o) => ({ value: o, label: t(`analysis.compareOption.${o}`) }))}
          />
          <Button icon={<DownloadOutlined />} disabled={!shown} onClick={() => setExporting(true)}>
            {t('analysis.export.open')}
          </Button>
          {canEditGroups && (
            <Button icon={<FilterOutlined />} onClick={() => setGroupsOpen(true)}>
              {t('analysis.groups.open')}
            </Button>
          )}
        </Space>
        <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
          {t('analysis.refresh', { zone: result?.timeZone ?? calendar.timeZone })}
        </Typography.Paragraph>
      </Card>

      {!shown ? (
        <Card>
          <Empty
            data-testid="statistics-empty"
            description={
              query === null
                ? t('analysis.pickFirst')
                : data.isPending
                  ? t('analysis.loading')
                  : data.error
                    ? data.error.message
                    : t('analysis.noData')
            }
          />
        </Card>
      ) : (
        <Row gutter={[16, 16]}>
          <Col xs={24} xl={16}>
            <Card
              size="small"
              title={`${result!.metricName} (${result!.unit})`}
              extra={
                result!.total && (
                  <Typography.Text strong data-testid="statistics-total">
                    {t('analysis.total')}: {format2(result!.total.total)} {result!.unit}
                  </Typography.Text>
                )
              }
            >
              {chart && <EChart option={chart} height={theme.height} data-testid="statistics-chart" />}
            </Card>
          </Col>
          <Col xs={24} xl={8}>
            <Space orientation="vertical" size={16} style={{ width: '100%' }}>
              <Card size="small" title={t('analysis.circle.title')}>
                {circle && circle.things > 0 ? (
                  <Row align="middle">
                    <Col span={16}>
                      <EChart
                        option={circleOption(
                          circle,
                          {
                            running: t('analysis.circle.running'),
                            notRunning: t('analysis.circle.notRunning'),
                          },
                          theme,
                        )}
                        height={200}
                        data-testid="statistics-circle"
                      />
                    </Col>
                    <Col span={8}>
                      <Space orientation="vertical">
                        <Statistic
                          title={t('analysis.circle.running')}
                          value={format2(circle.running)}
                          suffix="h"
                        />
                        <Statistic
                          title={t('analysis.circle.notRunning')}
                          value={format2(circle.notRunning)}
                          suffix="h"
                        />
                        <Statistic
                          title={t('analysis.circle.startupTimes')}
                          value={format2(circle.startupTimes)}
                        />
                      </Space>
                    </Col>
                  </Row>
                ) : (
                  <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('analysis.circle.none')} />
                )}
              </Card>
              <Card size="small" title={t('analysis.top.title')}>
                <Table
                  size="small"
                  rowKey="key"
                  data-testid="statistics-top"
                  dataSource={pages[Math.min(topPage, Math.max(0, pages.length - 1))] ?? []}
                  pagination={false}
                  columns={[
                    { title: '#', dataIndex: 'rank', width: 48 },
                    { title: t('analysis.top.name'), dataIndex: 'name', ellipsis: true },
                    {
                      title: `${t('analysis.top.value')} (${result!.unit})`,
                      dataIndex: 'total',
                      align: 'right',
                      render: (v: number | null) => format2(v),
                    },
                    {
                      title: t('analysis.top.share'),
                      dataIndex: 'share',
                      align: 'right',
                      render: (v: number | null) => (v === null ? '—' : `${format2(v)}%`),
                    },
                  ]}
                />
                {pages.length > 1 && (
                  <Segmented<number>
                    style={{ marginTop: 8 }}
                    value={Math.min(topPage, pages.length - 1)}
                    onChange={setTopPage}
                    options={pages.map((page, i) => ({
                      value: i,
                      label: `${page[0]!.rank}–${page[page.length - 1]!.rank}`,
                    }))}
                  />
                )}
              </Card>
            </Space>
          </Col>
        </Row>
      )}
      {query && (
        <ExportDialog
          open={exporting}
          onClose={() => setExporting(false)}
          query={query}
          metric={metricId ?? ''}
        />
      )}
      <FilterGroupsDialog open={groupsOpen} onClose={() => setGroupsOpen(false)} />
    </Space>
  );
}
