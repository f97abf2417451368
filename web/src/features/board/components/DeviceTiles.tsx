import { type BoardComponent, type Cabinet, ONLINE_WINDOW_MS } from '@kilowatch/contract';
import { Alert, Badge, Card, Empty, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useRegionCabinets } from '../../../api/board.ts';
import { liveKey, useLiveValues } from '../../../api/live.ts';
import { formatValue } from '../../../components/charts/index.ts';

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
 * a tile per device with online state and the metrics the component names (else its first two).
 */
export function DeviceTiles({ component, page, height, tools, title }: DeviceTilesProps) {
  const { t } = useTranslation();
  const regionId = component.params.regionId ?? page.regionId;
  const categoryId = component.metrics[0]?.categoryId ?? page.categoryId;
  const cabinets = useRegionCabinets(regionId, categoryId, page.successor);
  const list = cabinets.data ?? [];
  const live = useLiveValues(useMemo(() => list.map((c) => c.thingId), [list]));
  const now = Date.now();

  const shownOf = (c: Cabinet): Shown[] =>
    component.metrics.length > 0
      ? component.metrics.map((m) => ({
          identifier: m.identifier,
          name: m.name || c.attrMap[m.identifier]?.name || m.identifier,
          unit: m.unit || c.attrMap[m.identifier]?.unit || '',
        }))
      : Object.entries(c.attrMap)
          .filter(([, a]) => typeof a.value === 'number')
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
                        {typeof value === 'number' ? formatValue(value) : (value ?? '—')}
                        {typeof value === 'number' && m.unit ? ` ${m.unit}` : ''}
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
