import type { Cabinet } from '@kilowatch/contract';
import {
  Card,
  Descriptions,
  Drawer,
  Empty,
  Input,
  Pagination,
  Segmented,
  Space,
  Statistic,
  Typography,
} from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ExportMenu, type Sheet, withUnit } from '../../../components/charts/index.ts';
import { formatWithUnit, isStatusMetric } from '../../../components/charts/series.ts';
import { type CabinetFilter, cabinetColumns, cabinetOverview, filterCabinets } from '../lib/cabinets.ts';
import { isOnline, keyValues, runState, statusEntry } from '../lib/status.ts';
import styles from './cabinets.module.css';
import { OnlineTag, RunStateTag } from './StatusTag.tsx';

/** Tiles per page: a plant of 129 cabinets is a few screens of compact tiles, not 23,000 px. */
const PAGE_SIZES = [48, 96, 192];

/** Totals of the region's cabinets: the first thing the whole-plant view shows. */
export function CabinetOverview({ list, loading }: { list: readonly Cabinet[]; loading: boolean }) {
  const { t } = useTranslation();
  const o = cabinetOverview(list);
  return (
    <Card size="small" loading={loading} data-testid="cabinet-overview">
      <Space size={48} wrap>
        <Statistic title={t('monitoring.overview.total')} value={o.total} />
        <Statistic title={t('monitoring.overview.online')} value={o.online} />
        <Statistic title={t('monitoring.overview.offline')} value={o.offline} />
        <Statistic title={t('monitoring.overview.running')} value={o.running} />
      </Space>
    </Card>
  );
}

/**
 * The device cabinets of a region (GET /api/board/components/{id}?successor=true) as a compact,
 * searchable grid: name, state and two key values per tile; a tile opens the whole cabinet.
 */
export function CabinetGrid({ list, loading }: { list: readonly Cabinet[]; loading: boolean }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState<CabinetFilter>('all');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(PAGE_SIZES[0]!);
  const [openId, setOpenId] = useState<number | null>(null);
  const shown = useMemo(() => filterCabinets(list, search, filter), [list, search, filter]);
  const lastPage = Math.max(1, Math.ceil(shown.length / pageSize));
  const current = Math.min(page, lastPage);
  const slice = shown.slice((current - 1) * pageSize, current * pageSize);
  const open = openId === null ? undefined : list.find((c) => c.thingId === openId);
  const title = t('monitoring.cabinets.title');

  const sheet = (): Sheet => {
    const columns = cabinetColumns(shown);
    return {
      title,
      columns: [
        { header: t('monitoring.cabinetGrid.name'), kind: 'text' },
        { header: t('monitoring.cabinetGrid.identifier'), kind: 'text' },
        { header: t('monitoring.cabinetGrid.state'), kind: 'text' },
        { header: t('monitoring.cabinetGrid.run'), kind: 'text' },
        { header: t('monitoring.cabinetGrid.lastSeen'), kind: 'number' },
        ...columns.map((c) => ({ header: withUnit(c.name, c.unit), kind: 'number' as const })),
      ],
      rows: shown.map((c) => {
        const status = statusEntry(Object.values(c.attrMap));
        return [
          c.name,
          c.identifier,
          t(isOnline(c.lastSeenAgo) ? 'monitoring.online' : 'monitoring.offline'),
          status ? t(`monitoring.runState.${runState(status.value)}`) : null,
          c.lastSeenAgo,
          ...columns.map((col) => {
            const v = c.attrMap[col.identifier]?.value;
            return v === undefined ? null : v;
          }),
        ];
      }),
    };
  };

  return (
    <Card
      size="small"
      loading={loading}
      title={
        <Space size={8}>
          <span>{title}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="cabinet-count">
            {t('monitoring.cabinetGrid.count', { shown: shown.length, total: list.length })}
          </Typography.Text>
        </Space>
      }
      extra={<ExportMenu source={{ title, sheet }} disabled={!shown.length} />}
    >
      {list.length ? (
        <>
          <Space wrap style={{ marginBottom: 12 }}>
            <Input.Search
              allowClear
              style={{ width: 240 }}
              placeholder={t('monitoring.cabinetGrid.search')}
              aria-label={t('monitoring.cabinetGrid.search')}
              onChange={(e) => {
                setSearch(e.target.value);
                setPage(1);
              }}
            />
            <Segmented<CabinetFilter>
              value={filter}
              onChange={(v) => {
                setFilter(v);
                setPage(1);
              }}
              options={(['all', 'online', 'offline'] as const).map((f) => ({
                value: f,
                label: t(`monitoring.cabinetGrid.${f}`),
              }))}
            />
          </Space>
          {slice.length ? (
            <ul className={styles.grid} aria-label={title}>
              {slice.map((c) => (
                <li key={c.thingId}>
                  <CabinetTile cabinet={c} onOpen={() => setOpenId(c.thingId)} />
                </li>
              ))}
            </ul>
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('monitoring.cabinetGrid.noMatch')} />
          )}
          {shown.length > PAGE_SIZES[0]! ? (
            <Pagination
              size="small"
              style={{ marginTop: 12, textAlign: 'right' }}
              current={current}
              pageSize={pageSize}
              total={shown.length}
              showSizeChanger
              pageSizeOptions={PAGE_SIZES}
              onChange={(p, size) => {
                setPage(size === pageSize ? p : 1);
                setPageSize(size);
              }}
            />
          ) : null}
        </>
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('monitoring.cabinets.empty')} />
      )}
      <Drawer
        open={open !== undefined}
        onClose={() => setOpenId(null)}
        title={open?.name}
        size="large"
        destroyOnHidden
      >
        {open ? <CabinetDetails cabinet={open} /> : null}
      </Drawer>
    </Card>
  );
}

/** One cabinet in the grid: a button (name, state, two key values) that opens its details. */
function CabinetTile({ cabinet, onOpen }: { cabinet: Cabinet; onOpen(): void }) {
  const { t } = useTranslation();
  const online = isOnline(cabinet.lastSeenAgo);
  const values = keyValues(cabinet, 3)
    .filter((v) => !isStatusMetric(v.name))
    .slice(0, 2);
  const status = statusEntry(Object.values(cabinet.attrMap));
  return (
    <button
      type="button"
      className={`${styles.tile} ${online ? '' : styles.offline}`}
      onClick={onOpen}
      data-testid={`cabinet-${cabinet.thingId}`}
    >
      <span className={styles.head}>
        <span className={`${styles.dot} ${online ? styles.on : ''}`} aria-hidden />
        <span className={styles.name}>{cabinet.name}</span>
      </span>
      <span className={styles.meta}>
        {t(online ? 'monitoring.online' : 'monitoring.offline')}
        {status ? ` · ${t(`monitoring.runState.${runState(status.value)}`)}` : ''}
      </span>
      {values.map((v) => (
        <span key={v.identifier} className={styles.value}>
          <span className={styles.label}>{v.name}</span> {formatWithUnit(v.value, v.unit)}
        </span>
      ))}
    </button>
  );
}

/** Everything about one cabinet: description, attributes and every latest value. */
function CabinetDetails({ cabinet }: { cabinet: Cabinet }) {
  const { t } = useTranslation();
  const values = keyValues(cabinet, Number.POSITIVE_INFINITY);
  const attributes = cabinet.setting?.attributes ?? [];
  return (
    <Space
      orientation="vertical"
      size={16}
      style={{ width: '100%' }}
      data-testid={`cabinet-details-${cabinet.thingId}`}
    >
      <Space size={8}>
        <Typography.Text type="secondary">{cabinet.identifier}</Typography.Text>
        <OnlineTag online={isOnline(cabinet.lastSeenAgo)} />
      </Space>
      {cabinet.description ? (
        <Typography.Paragraph type="secondary">{cabinet.description}</Typography.Paragraph>
      ) : null}
      {attributes.length ? (
        <Descriptions
          size="small"
          column={2}
          title={t('monitoring.cabinets.attributes')}
          items={attributes.map((a) => ({ key: a.identifier, label: a.name, children: a.value }))}
        />
      ) : null}
      {values.length ? (
        <Descriptions
          size="small"
          column={2}
          title={t('monitoring.cabinets.latest')}
          items={values.map((v) => ({
            key: v.identifier,
            label: v.name,
            children: isStatusMetric(v.name) ? (
              <RunStateTag value={v.value} />
            ) : (
              formatWithUnit(v.value, v.unit)
            ),
          }))}
        />
      ) : null}
    </Space>
  );
}
