import {
  type BoardComponent,
  type Cabinet,
  type CategoryAbility,
  ONLINE_WINDOW_MS,
} from '@kilowatch/contract';
import { useQueries } from '@tanstack/react-query';
import { Alert, Badge, Card, Empty, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useRegionCabinets } from '../../../api/board.ts';
import { liveKey, useLiveValues } from '../../../api/live.ts';
import { categoryAbilitiesQuery } from '../../../api/things.ts';
import { formatReading } from '../../../components/charts/index.ts';

export interface DeviceTilesProps {
  component: Pick<BoardComponent, 'id' | 'title' | 'params' | 'metrics'>;
  /** The page's region, sub-regions and category: the component's region wins when it names one. */
  page: { regionId: number; successor: boolean; categoryId: number | null };
  height: number;
  /** Drag handle and tools of the editor, beside the title. */
  tools?: React.ReactNode;
  title?: React.ReactNode;
}

interface Shown {
  identifier: string;
  name: string;
  unit: string;
}

/**
 * A region's devices now (GET /api/board/components/{regionId} with categoryId and successor,
 * polled), their values replaced as they are written through the live hub (GET /api/query/live):
 * a tile per device with online state and the metrics the component names (else its first two
 * plain numbers), enum values by their labels.
 */
export function DeviceTiles({ component, page, height, tools, title }: DeviceTilesProps) {
  const { t } = useTranslation();
  const regionId = component.params.regionId ?? page.regionId;
  const categoryId = component.metrics[0]?.categoryId ?? page.categoryId;
  const cabinets = useRegionCabinets(regionId, categoryId, page.successor);
  const list = cabinets.data ?? [];
  const live = useLiveValues(useMemo(() => list.map((c) => c.thingId), [list]));
  const now = Date.now();
  // The abilities of the tiles' categories: enum labels (运行/停机) and which values are plain numbers.
  const categoryIds = useMemo(() => [...new Set(list.map((c) => c.categoryId))], [list]);
  const abilityLists = useQueries({ queries: categoryIds.map((id) => categoryAbilitiesQuery(id)) });
  const abilities = new Map<string, CategoryAbility>();
  categoryIds.forEach((id, i) => {
    for (const a of abilityLists[i]?.data ?? []) abilities.set(`${id}:${a.identifier}`, a);
  });
  const abilityOf = (c: Cabinet, identifier: string) => abilities.get(`${c.categoryId}:${identifier}`);
  const shownValue = (
    c: Cabinet,
    identifier: string,
    value: number | string | null | undefined,
    unit: string,
  ) => {
    if (value === null || value === undefined) return '—';
    const ability = abilityOf(c, identifier);
    const option = ability?.enumOptions.find((o) => o.value === String(value));
    if (option) return option.label;
    return typeof value === 'number' ? `${formatReading(value, unit)}${unit ? ` ${unit}` : ''}` : value;
  };

  const shownOf = (c: Cabinet): Shown[] =>
    component.metrics.length > 0
      ? component.metrics.map((m) => ({
          identifier: m.identifier,
          name: m.name || c.attrMap[m.identifier]?.name || m.identifier,
          unit: m.unit || c.attrMap[m.identifier]?.unit || '',
        }))
      : Object.entries(c.attrMap)
          .filter(
            ([identifier, a]) =>
              typeof a.value === 'number' && (abilityOf(c, identifier)?.dataType ?? 'number') === 'number',
          )
          .slice(0, 2)
          .map(([identifier, a]) => ({ identifier, name: a.name, unit: a.unit }));

  const body = () => {
    if (cabinets.error) return <Alert type="error" showIcon title={t('board.tiles.loadFailed')} />;
    if (!cabinets.isPending && list.length === 0) {
      return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('board.tiles.none')} />;
    }
    return (
      <ul
        aria-label={component.title}
        style={{
          listStyle: 'none',
          margin: 0,
          padding: 0,
          display: 'grid',
          gridTemplateColumns: 'repeat(auto-fill, minmax(160px, 1fr))',
          gap: 8,
          maxHeight: height,
          overflow: 'auto',
        }}
      >
        {list.map((c) => {
          const seen = Math.max(
            c.lastSeenAgo === null ? Number.NEGATIVE_INFINITY : now - c.lastSeenAgo * 1000,
            ...Object.keys(c.attrMap).map(
              (m) => live.get(liveKey(c.thingId, m))?.ts ?? Number.NEGATIVE_INFINITY,
            ),
          );
          const online = now - seen <= ONLINE_WINDOW_MS;
          return (
            <li key={c.thingId} data-testid={`board-tile-${c.thingId}`}>
              <Card size="small" styles={{ body: { padding: 8 } }}>
                <Badge
                  status={online ? 'success' : 'default'}
                  text={<Typography.Text strong>{c.name}</Typography.Text>}
                />
                <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
                  {online ? t('board.tiles.online') : t('board.tiles.offline')}
                </Typography.Text>
                {shownOf(c).map((m) => {
                  const value =
                    live.get(liveKey(c.thingId, m.identifier))?.value ?? c.attrMap[m.identifier]?.value;
                  return (
                    <div
                      key={m.identifier}
                      style={{ display: 'flex', justifyContent: 'space-between', gap: 8 }}
                    >
                      <Typography.Text type="secondary">{m.name}</Typography.Text>
                      <Typography.Text strong data-testid={`board-value-${c.thingId}-${m.identifier}`}>
                        {shownValue(c, m.identifier, value, m.unit)}
                      </Typography.Text>
                    </div>
                  );
                })}
              </Card>
            </li>
          );
        })}
      </ul>
    );
  };

  return (
    <Card
      size="small"
      loading={cabinets.isPending}
      style={{ height: '100%' }}
      styles={{ body: { padding: 8 } }}
      title={title ?? component.title}
      extra={tools}
      data-testid={`board-component-${component.id}`}
    >
      {body()}
    </Card>
  );
}
