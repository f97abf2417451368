import type { Camera } from '@kilowatch/contract';
import {
  Button,
  Card,
  Col,
  Empty,
  Flex,
  Result,
  Row,
  Segmented,
  Skeleton,
  Space,
  Tree,
  Typography,
} from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useRegionTree } from '../../../api/regions.ts';
import { useCameras } from '../../../api/videos.ts';
import { formatPlantTime } from '../../../lib/plant-calendar.ts';
import { isAdmin, isGranted, useSession } from '../../../lib/session.ts';
import {
  EMPTY_GRID,
  fillWith,
  type GridState,
  LAYOUTS,
  type Layout,
  layoutFor,
  loadGrid,
  placeCamera,
  saveGrid,
  targetTile,
} from '../lib/layout.ts';
import { camerasInRegion, cameraTree } from '../lib/tree.ts';
import { CameraTile } from './CameraTile.tsx';
import styles from './video.module.css';

const MANAGEMENT = '/device_management/video';

/**
 * /video: the video wall. Without parameters, a grid of 1, 4, 9 or 16 tiles the user fills from
 * the cameras grouped by region (kept per user in this browser). With `?thing=` (from an alarm or
 * a device), `?region=` or `?camera=`, those cameras; with `&at=` (ISO time), their recordings at
 * that moment.
 */
export function VideoScreen() {
  const [params] = useSearchParams();
  const focus = {
    thing: positiveInt(params.get('thing')),
    region: positiveInt(params.get('region')),
    camera: positiveInt(params.get('camera')),
  };
  const at = params.get('at');
  const atMs = at ? Date.parse(at) : Number.NaN;
  if (focus.thing || focus.region || focus.camera) {
    return <FocusView {...focus} at={Number.isNaN(atMs) ? null : atMs} />;
  }
  return <WallView />;
}

const positiveInt = (value: string | null) => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : null;
};

/** Columns of a square layout; one tile is kept within the window's height rather than its width. */
const gridStyle = (tiles: number) => ({
  gridTemplateColumns: `repeat(${Math.sqrt(tiles)}, minmax(0, 1fr))`,
  maxWidth: tiles === 1 ? 'calc((100vh - 240px) * 16 / 9)' : undefined,
});

function useCanManage() {
  const roles = useSession((s) => s.roles);
  const routes = useSession((s) => s.routes);
  return isAdmin(roles) || isGranted(routes, MANAGEMENT);
}

/** No camera at all: say so, and where an administrator adds them. */
function NoCameras({ description }: { description?: string }) {
  const { t } = useTranslation();
  const canManage = useCanManage();
  return (
    <Card>
      <Empty
        description={
          <Space orientation="vertical" size={4}>
            <span>{description ?? t('video.noCameras')}</span>
            {canManage && <Typography.Text type="secondary">{t('video.noCamerasAdmin')}</Typography.Text>}
          </Space>
        }
        data-testid="video-empty"
      >
        {canManage && (
          <Link to={MANAGEMENT}>
            <Button type="primary">{t('video.manage')}</Button>
          </Link>
        )}
      </Empty>
    </Card>
  );
}

function LoadFailed({ retry }: { retry(): void }) {
  const { t } = useTranslation();
  return (
    <Result
      status="warning"
      title={t('video.loadFailed')}
      extra={<Button onClick={retry}>{t('video.retry')}</Button>}
    />
  );
}

function WallView() {
  const { t } = useTranslation();
  const cameras = useCameras();
  const regions = useRegionTree();
  const userId = useSession((s) => s.user?.id ?? null);
  const [grid, setGrid] = useState<GridState>(() => (userId === null ? EMPTY_GRID : loadGrid(userId)));
  const [selected, setSelected] = useState<number | null>(null);
  const [loadedFor, setLoadedFor] = useState(userId);
  if (loadedFor !== userId) {
    setLoadedFor(userId);
    setGrid(userId === null ? EMPTY_GRID : loadGrid(userId));
  }
  useEffect(() => {
    if (userId !== null) saveGrid(userId, grid);
  }, [userId, grid]);

  const byId = useMemo(() => new Map((cameras.data ?? []).map((c) => [c.id, c])), [cameras.data]);
  const tree = useMemo(
    () =>
      cameraTree(regions.data ?? [], cameras.data ?? [], {
        byThing: t('video.byThing'),
        unassigned: t('video.unassigned'),
      }),
    [regions.data, cameras.data, t],
  );

  if (cameras.isPending) return <Skeleton active />;
  if (cameras.isError) return <LoadFailed retry={() => cameras.refetch()} />;
  if (cameras.data.length === 0) return <NoCameras />;

  const pick = (ids: number[], cameraId?: number) => {
    if (cameraId !== undefined) {
      const tile = targetTile(grid, selected);
      setGrid(placeCamera(grid, tile, cameraId));
      setSelected(tile + 1 < grid.layout ? tile + 1 : null);
    } else {
      const layout = layoutFor(Math.max(ids.length, 1));
      setGrid(fillWith({ ...grid, layout }, ids));
      setSelected(null);
    }
  };

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={6} xxl={5}>
        <Card
          size="small"
          title={t('video.cameras')}
          styles={{ body: { maxHeight: '75vh', overflow: 'auto' } }}
        >
          <Tree<{ key: string; title: string; cameraId?: number; cameraIds: number[] }>
            treeData={tree}
            defaultExpandAll
            blockNode
            selectedKeys={[]}
            onSelect={(_, { node }) => pick(node.cameraIds, node.cameraId)}
            data-testid="camera-tree"
          />
        </Card>
      </Col>
      <Col xs={24} lg={18} xxl={19}>
        <Space orientation="vertical" size={12} style={{ width: '100%' }}>
          <Flex wrap gap={12} align="center">
            <Typography.Text>{t('video.layout')}</Typography.Text>
            <Segmented<Layout>
              value={grid.layout}
              onChange={(layout) => setGrid({ ...grid, layout })}
              options={LAYOUTS.map((n) => ({ value: n, label: t('video.layoutOption', { count: n }) }))}
              data-testid="video-layout"
            />
            <Button onClick={() => setGrid({ ...grid, slots: grid.slots.map(() => null) })}>
              {t('video.clear')}
            </Button>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('video.pickHint')} · {t('video.stored')}
            </Typography.Text>
          </Flex>
          <div className={styles.grid} style={gridStyle(grid.layout)} data-testid="video-grid">
            {grid.slots.slice(0, grid.layout).map((id, tile) => {
              const camera = id === null ? undefined : byId.get(id);
              const isSelected = selected === tile;
              return camera ? (
                <CameraTile
                  // biome-ignore lint/suspicious/noArrayIndexKey: a tile is its position in the grid
                  key={`${tile}:${camera.id}`}
                  camera={camera}
                  selected={isSelected}
                  onSelect={() => setSelected(tile)}
                  onRemove={() =>
                    setGrid({ ...grid, slots: grid.slots.map((s, i) => (i === tile ? null : s)) })
                  }
                />
              ) : (
                <button
                  // biome-ignore lint/suspicious/noArrayIndexKey: a tile is its position in the grid
                  key={tile}
                  type="button"
                  className={`${styles.tile} ${isSelected ? styles.selected : ''}`}
                  onClick={() => setSelected(tile)}
                  data-testid={`empty-tile-${tile}`}
                >
                  <span className={styles.empty}>{t('video.emptyTile')}</span>
                </button>
              );
            })}
          </div>
        </Space>
      </Col>
    </Row>
  );
}

/** A device's (or region's, or one) cameras, live or at a moment's recording. */
function FocusView({
  thing,
  region,
  camera,
  at,
}: {
  thing: number | null;
  region: number | null;
  camera: number | null;
  at: number | null;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const cameras = useCameras(thing);
  const regions = useRegionTree();
  let list: Camera[] = cameras.data ?? [];
  let title = t('video.focus.camera');
  if (thing) {
    const own = list.find((c) => c.match === 'thing' && c.thingName);
    title = own?.thingName
      ? t('video.focus.thing', { name: own.thingName })
      : t('video.focus.thingUnnamed', { id: thing });
  } else if (region) {
    const found = camerasInRegion(regions.data ?? [], list, region);
    list = found.cameras;
    title = t('video.focus.region', { name: found.name ?? `#${region}` });
  } else if (camera) {
    list = list.filter((c) => c.id === camera);
    title = list[0]?.name ?? t('video.focus.camera');
  }
  const shown = list.slice(0, 16);
  const tiles = layoutFor(Math.max(shown.length, 1));
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }}>
      <Card size="small">
        <Flex wrap gap={12} align="center">
          <Typography.Text strong>{title}</Typography.Text>
          <Typography.Text type={at !== null ? 'warning' : 'secondary'} data-testid="video-focus-time">
            {at !== null ? t('video.focus.at', { time: formatPlantTime(at) }) : t('video.focus.live')}
          </Typography.Text>
          <Button onClick={() => navigate('/video')} style={{ marginLeft: 'auto' }}>
            {t('video.focus.back')}
          </Button>
        </Flex>
      </Card>
      {cameras.isPending || (region !== null && regions.isPending) ? (
        <Skeleton active />
      ) : cameras.isError ? (
        <LoadFailed retry={() => cameras.refetch()} />
      ) : shown.length === 0 ? (
        <NoCameras description={thing ? t('video.focus.none') : t('video.noCameras')} />
      ) : (
        <div className={styles.grid} style={gridStyle(tiles)} data-testid="video-grid">
          {shown.map((c) => (
            <CameraTile
              key={c.id}
              camera={c}
              at={at}
              note={
                at !== null && !c.recording
                  ? t('video.focus.noRecording')
                  : c.match === 'region' && c.regionName
                    ? t('video.focus.matchRegion', { name: c.regionName })
                    : c.match === 'thing'
                      ? t('video.focus.matchThing')
                      : undefined
              }
            />
          ))}
        </div>
      )}
    </Space>
  );
}
