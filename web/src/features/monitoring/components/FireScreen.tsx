import type { Cabinet, RegionNode } from '@kilowatch/contract';
import { useQueries, useQuery } from '@tanstack/react-query';
import { Alert, Card, Col, Empty, Row, Select, Skeleton, Space, Tag, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { regionTreeQuery } from '../../../api/regions.ts';
import { categoryAbilitiesQuery, METADATA_STALE_MS, useCategories } from '../../../api/things.ts';
import { ExportMenu, type ExportSource } from '../../../components/charts/export/ExportMenu.tsx';
import type { Sheet } from '../../../components/charts/export/sheet.ts';
import { formatWithUnit } from '../../../components/charts/series.ts';
import { usePolledCabinets } from '../hooks/monitoring.ts';
import {
  countStates,
  detectFireCategory,
  FIRE_STATE_COLORS,
  FIRE_STATES,
  type FireState,
  fireState,
  smokeEntry,
  temperatureEntry,
} from '../lib/fire.ts';
import { useMonitorParams } from '../lib/selection.ts';
import { regionsWithThings, walk } from '../lib/tree.ts';

/** A latest value as a sheet cell: numbers stay numbers, text stays text. */
const sheetValue = (entry: { value: unknown }) =>
  typeof entry.value === 'number' || typeof entry.value === 'string' ? entry.value : null;

/** Categories probed for a smoke/state ability when the address names none. */
const MAX_PROBED_CATEGORIES = 30;

/**
 * /energy_monitor/fire: fire sensors grouped by region, each with its state (normal, alarm,
 * fault, offline) and latest smoke and temperature, refreshed every 10 s silently.
 */
/** The spec's state colours as text on their own tint are 2.4–3.3:1: the tag keeps the colour, the text is dark. */
const READABLE = { color: 'rgba(0, 0, 0, 0.88)' };

export default function FireScreen() {
  const { t } = useTranslation();
  const { categoryId: chosen, setCategory } = useMonitorParams();
  const categories = useCategories();
  const probed = (categories.data ?? []).slice(0, MAX_PROBED_CATEGORIES);
  const abilities = useQueries({
    queries: probed.map((c) => ({
      ...categoryAbilitiesQuery(c.id),
      staleTime: METADATA_STALE_MS,
      enabled: chosen === null,
    })),
  });
  const detected = useMemo(() => {
    if (chosen !== null || abilities.some((a) => a.isPending)) return null;
    const byId = new Map(probed.map((c, i) => [c.id, abilities[i]?.data] as const));
    return detectFireCategory(probed, (id) => byId.get(id));
  }, [chosen, abilities, probed]);
  const categoryId = chosen ?? detected;

  const tree = useQuery({
    ...regionTreeQuery({ withThings: true, categoryId }),
    enabled: categoryId !== null,
  });
  const roots = tree.data ?? [];
  const cabinetResults = usePolledCabinets(
    roots.map((r) => r.id),
    categoryId,
  );
  const cabinets = useMemo(() => {
    const map = new Map<number, Cabinet>();
    for (const r of cabinetResults) for (const c of r.data ?? []) map.set(c.thingId, c);
    return map;
  }, [cabinetResults]);
  const groups = useMemo(() => regionsWithThings(roots), [roots]);
  const sensors = useMemo(() => {
    const ids = new Set(
      [...walk(roots)].filter((n) => n.resourceType === 'thing').map((n) => n.thingId ?? n.id),
    );
    return [...ids].map((id) => cabinets.get(id)).filter((c): c is Cabinet => c !== undefined);
  }, [roots, cabinets]);
  const counts = countStates(sensors);
  const exportSource: ExportSource = {
    title: t('monitoring.exportColumns.fire'),
    sheet: (): Sheet => ({
      title: t('monitoring.exportColumns.fire'),
      columns: [
        { header: t('monitoring.exportColumns.region'), kind: 'text' },
        { header: t('monitoring.exportColumns.device'), kind: 'text' },
        { header: t('monitoring.exportColumns.state'), kind: 'text' },
        { header: t('monitoring.fire.smoke'), kind: 'number' },
        { header: t('monitoring.fire.temperature'), kind: 'number' },
      ],
      rows: groups.flatMap(({ region, things }) =>
        things.map((thing) => {
          const cabinet = cabinets.get(thing.thingId ?? thing.id);
          const smoke = cabinet && smokeEntry(cabinet);
          const temperature = cabinet && temperatureEntry(cabinet);
          return [
            region.name,
            thing.name,
            t(`monitoring.fire.state.${cabinet ? fireState(cabinet) : 'offline'}`),
            smoke ? sheetValue(smoke) : null,
            temperature ? sheetValue(temperature) : null,
          ];
        }),
      ),
    }),
  };
  const detecting = chosen === null && (categories.isPending || abilities.some((a) => a.isPending));

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Card size="small">
        <Space wrap size={16}>
          <Select<number>
            style={{ width: 220 }}
            aria-label={t('monitoring.fire.category')}
            placeholder={t('monitoring.fire.category')}
            loading={categories.isPending}
            value={categoryId ?? undefined}
            onChange={(v) => setCategory(v)}
            options={(categories.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
          />
          <ExportMenu source={exportSource} disabled={!groups.length} />
          {FIRE_STATES.map((s) => (
            <Tag key={s} color={FIRE_STATE_COLORS[s]} style={READABLE} data-testid={`count-${s}`}>
              {t(`monitoring.fire.state.${s}`)}: {counts[s]}
            </Tag>
          ))}
        </Space>
      </Card>
      {detecting || (categoryId !== null && tree.isPending) ? (
        <Skeleton active />
      ) : categoryId === null ? (
        <Alert type="info" showIcon title={t('monitoring.fire.pickCategory')} />
      ) : !groups.length ? (
        <Card>
          <Empty description={t('monitoring.fire.empty')} />
        </Card>
      ) : (
        groups.map(({ region, things }) => (
          <Card key={region.id} size="small" title={region.name}>
            <Row gutter={[12, 12]}>
              {things.map((thing) => (
                <Col key={`${region.id}:${thing.thingId}`} xs={24} sm={12} lg={8} xxl={6}>
                  <SensorCard thing={thing} cabinet={cabinets.get(thing.thingId ?? thing.id)} />
                </Col>
              ))}
            </Row>
          </Card>
        ))
      )}
    </Space>
  );
}

function SensorCard({ thing, cabinet }: { thing: RegionNode; cabinet: Cabinet | undefined }) {
  const { t } = useTranslation();
  const state: FireState = cabinet ? fireState(cabinet) : 'offline';
  const smoke = cabinet && smokeEntry(cabinet);
  const temperature = cabinet && temperatureEntry(cabinet);
  return (
    <Card
      size="small"
      data-testid={`sensor-${thing.thingId}`}
      style={{ borderLeft: `4px solid ${FIRE_STATE_COLORS[state]}` }}
      title={thing.name}
      extra={
        <Tag color={FIRE_STATE_COLORS[state]} style={READABLE}>
          {t(`monitoring.fire.state.${state}`)}
        </Tag>
      }
    >
      <Space orientation="vertical" size={2}>
        <Typography.Text>
          {t('monitoring.fire.smoke')}: {smoke ? formatWithUnit(smoke.value, smoke.unit) : '-'}
        </Typography.Text>
        <Typography.Text>
          {t('monitoring.fire.temperature')}:{' '}
          {temperature ? formatWithUnit(temperature.value, temperature.unit) : '-'}
        </Typography.Text>
      </Space>
    </Card>
  );
}
