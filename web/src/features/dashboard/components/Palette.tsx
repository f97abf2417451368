import type { Placement, RegionNode } from '@kilowatch/contract';
import { Input } from 'antd';
import { type DragEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRegionTree } from '../../../api/regions.ts';
import { useThingSearch } from '../../../api/things.ts';
import styles from './dashboard.module.css';

/** The drag payload's type: a thing or region to place. */
export const RESOURCE_MIME = 'application/x-kilowatch-resource';

const flatten = (nodes: readonly RegionNode[]): RegionNode[] =>
  nodes.flatMap((n) => [n, ...flatten(n.children ?? [])]);

function Item({
  resourceType,
  resourceId,
  name,
  placed,
}: {
  resourceType: 'thing' | 'region';
  resourceId: number;
  name: string;
  placed: boolean;
}) {
  const { t } = useTranslation();
  const onDragStart = (e: DragEvent<HTMLButtonElement>) => {
    e.dataTransfer.setData(RESOURCE_MIME, JSON.stringify({ resourceType, resourceId }));
    e.dataTransfer.effectAllowed = 'copy';
  };
  return (
    <button
      type="button"
      className={styles.paletteItem}
      draggable
      onDragStart={onDragStart}
      data-placed={placed}
      data-testid={`palette-${resourceType}-${resourceId}`}
    >
      {name}
      {placed && <span className={styles.kpiNote}> · {t('dashboard.map.placed')}</span>}
    </button>
  );
}

/** What can be dragged onto the map: devices found by name, and every region. */
export function Palette({ placements }: { placements: readonly Placement[] }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const things = useThingSearch(name.trim());
  const tree = useRegionTree();
  const regions = useMemo(
    () => flatten(tree.data ?? []).filter((n) => n.resourceType !== 'thing'),
    [tree.data],
  );
  const placed = new Set(placements.map((p) => `${p.resourceType}:${p.resourceId}`));
  return (
    <aside className={styles.palette} data-testid="map-palette">
      <span className={styles.kpiNote}>{t('dashboard.map.palette')}</span>
      <h3 className={styles.panelTitle}>{t('dashboard.map.things')}</h3>
      <Input.Search
        allowClear
        placeholder={t('dashboard.map.search')}
        onSearch={setName}
        data-testid="palette-search"
      />
      {(things.data ?? []).map((thing) => (
        <Item
          key={`t${thing.id}`}
          resourceType="thing"
          resourceId={thing.id}
          name={thing.name}
          placed={placed.has(`thing:${thing.id}`)}
        />
      ))}
      <h3 className={styles.panelTitle}>{t('dashboard.map.regions')}</h3>
      {regions.map((region) => (
        <Item
          key={`r${region.id}`}
          resourceType="region"
          resourceId={region.id}
          name={region.name}
          placed={placed.has(`region:${region.id}`)}
        />
      ))}
    </aside>
  );
}
