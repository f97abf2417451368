import { CloseOutlined, DeleteOutlined, EditOutlined, UploadOutlined } from '@ant-design/icons';
import {
  MAP_IMAGE_MAX_BYTES,
  MAP_IMAGE_TYPES,
  type Placement,
  type PlacementInput,
} from '@kilowatch/contract';
import { Button, Upload } from 'antd';
import {
  type CSSProperties,
  type DragEvent,
  type PointerEvent,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  useDeleteMapImage,
  useMapImageBlob,
  useMovePlacement,
  usePlace,
  useRemovePlacement,
  useSituationMap,
  useUploadMapImage,
} from '../../../api/dashboard.ts';
import { type LatestValues, useLiveWithFallback } from '../../../api/live.ts';
import { useConfirmDelete } from '../../../components/crud/confirm-delete.tsx';
import { notify } from '../../../lib/notify.ts';
import { downscaleForDisplay } from '../lib/downscale.ts';
import { markerColor, markerState, SEVERITY_COLORS, toFraction } from '../lib/state.ts';
import styles from './dashboard.module.css';
import { Palette, RESOURCE_MIME } from './Palette.tsx';

/** An object URL of the blob for as long as it is shown; revoked when it changes or unmounts. */
function useObjectUrl(blob: Blob | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) return setUrl(null);
    const made = URL.createObjectURL(blob);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [blob]);
  return url;
}

interface Drag {
  id: number;
  x: number;
  y: number;
  moved: boolean;
}

function Marker({
  placement,
  live,
  now,
  powerMetric,
  editing,
  drag,
  onPointerDown,
  onOpen,
  onRemove,
}: {
  placement: Placement;
  live: LatestValues;
  now: number;
  powerMetric: string | null;
  editing: boolean;
  drag: Drag | null;
  onPointerDown: (e: PointerEvent<HTMLButtonElement>, p: Placement) => void;
  onOpen: (p: Placement) => void;
  onRemove: (p: Placement) => void;
}) {
  const { t } = useTranslation();
  const state = markerState(placement, live, now, powerMetric);
  const at = drag?.id === placement.id ? drag : placement;
  const label =
    placement.resourceType === 'region'
      ? `${placement.name} · ${t('dashboard.map.regionCount', { online: placement.online, things: placement.things })}`
      : [
          placement.name,
          state.running === null
            ? null
            : t(state.running ? 'dashboard.map.running' : 'dashboard.map.stopped'),
          state.power === null ? null : `${state.power.toFixed(1)} kW`,
        ]
          .filter(Boolean)
          .join(' · ');
  const classes = [
    styles.marker,
    placement.resourceType === 'region' ? styles.markerRegion : '',
    state.alarm?.flashing ? styles.flashing : '',
  ].join(' ');
  return (
    <div style={{ position: 'absolute', left: `${at.x * 100}%`, top: `${at.y * 100}%` }}>
      <button
        type="button"
        className={classes}
        style={{ '--color': markerColor(state) } as CSSProperties}
        title={editing ? placement.name : t('dashboard.map.open', { name: placement.name })}
        data-testid={`marker-${placement.resourceType}-${placement.resourceId}`}
        data-presence={state.presence}
        data-running={state.running === null ? '' : String(state.running)}
        data-alarm={state.alarm?.severity ?? ''}
        data-flashing={state.alarm?.flashing ? 'true' : 'false'}
        onPointerDown={(e) => onPointerDown(e, placement)}
        onClick={() => !editing && onOpen(placement)}
      >
        <span className={styles.markerDot} />
        <span className={styles.markerLabel}>{label}</span>
      </button>
      {editing && (
        <Button
          className={styles.markerRemove}
          size="small"
          shape="circle"
          danger
          icon={<CloseOutlined />}
          aria-label={`${t('dashboard.map.remove')} ${placement.name}`}
          onClick={() => onRemove(placement)}
        />
      )}
    </div>
  );
}

function Legend() {
  const { t } = useTranslation();
  const items: [string, string][] = [
    ['#52c41a', 'running'],
    ['#1677ff', 'stopped'],
    ['#8c8c8c', 'offline'],
    [SEVERITY_COLORS.critical, 'alarm'],
  ];
  return (
    <span className={styles.legend}>
      {items.map(([color, key]) => (
        <span key={key}>
          <span className={styles.legendSwatch} style={{ background: color }} />
          {t(`dashboard.map.legend.${key}`)}
        </span>
      ))}
    </span>
  );
}

/**
 * The situation map: the plant's layout image with things and regions placed on it, coloured by
 * state and alarm, each a way into its realtime screen. Holders of the /dashboard grant edit it:
 * upload the image, drag devices and regions on, move and remove them.
 */
export function SituationMap({
  canEdit,
  now,
  powerMetric,
}: {
  canEdit: boolean;
  now: number;
  /** The plant's power metric (the overview's choice), shown beside a device that sends it. */
  powerMetric: string | null;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const map = useSituationMap();
  const image = map.data?.image ?? null;
  const placements = map.data?.placements ?? [];
  const blob = useMapImageBlob(image);
  const url = useObjectUrl(image ? blob.data : undefined);
  const thingIds = useMemo(
    () => placements.filter((p) => p.resourceType === 'thing').map((p) => p.resourceId),
    [placements],
  );
  const live = useLiveWithFallback(thingIds);
  const [editing, setEditing] = useState(false);
  const [drag, setDrag] = useState<Drag | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const upload = useUploadMapImage();
  const deleteImage = useDeleteMapImage();
  const place = usePlace();
  const move = useMovePlacement();
  const remove = useRemovePlacement();
  const confirmDelete = useConfirmDelete();
  const isEditing = canEdit && editing;

  const beforeUpload = (file: File) => {
    void downscaleForDisplay(file).then((shown) =>
      upload.mutate(shown, { onSuccess: () => notify.success(t('dashboard.map.uploaded')) }),
    );
    return false;
  };

  const onPointerDown = (e: PointerEvent<HTMLButtonElement>, p: Placement) => {
    if (!isEditing) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    setDrag({ id: p.id, x: p.x, y: p.y, moved: false });
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (!drag || !box.current) return;
    setDrag({
      ...drag,
      ...toFraction(e.clientX, e.clientY, box.current.getBoundingClientRect()),
      moved: true,
    });
  };
  const onPointerUp = () => {
    if (!drag) return;
    // The marker stays where it was dropped while the save runs; the map's refetch confirms it.
    if (drag.moved)
      move.mutate({ id: drag.id, at: { x: drag.x, y: drag.y } }, { onSettled: () => setDrag(null) });
    else setDrag(null);
  };
  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    const raw = e.dataTransfer.getData(RESOURCE_MIME);
    if (!raw || !box.current) return;
    const resource = JSON.parse(raw) as Pick<PlacementInput, 'resourceType' | 'resourceId'>;
    place.mutate({ ...resource, ...toFraction(e.clientX, e.clientY, box.current.getBoundingClientRect()) });
  };
  const onRemove = (p: Placement) =>
    confirmDelete({
      title: t('dashboard.map.remove'),
      content: t('dashboard.map.removeConfirm', { name: p.name }),
      onDelete: () => remove.mutateAsync(p.id),
    });
  const onDeleteImage = () =>
    confirmDelete({
      title: t('dashboard.map.deleteImage'),
      content: t('dashboard.map.deleteImageConfirm'),
      onDelete: () => deleteImage.mutateAsync(),
    });
  const open = (p: Placement) =>
    navigate(`/energy_monitor/realtime?resourceType=${p.resourceType}&resourceId=${p.resourceId}`);

  const uploadButton = (
    <Upload
      accept={MAP_IMAGE_TYPES.join(',')}
      showUploadList={false}
      beforeUpload={beforeUpload}
      maxCount={1}
    >
      <Button icon={<UploadOutlined />} loading={upload.isPending} data-testid="map-upload">
        {t(image ? 'dashboard.map.replace' : 'dashboard.map.upload')}
      </Button>
    </Upload>
  );

  return (
    <section className={`${styles.panel} ${styles.mapPanel}`} data-testid="situation-map">
      <div className={styles.mapToolbar}>
        <h2 className={styles.panelTitle} style={{ margin: 0 }}>
          {t('dashboard.map.title')}
        </h2>
        <span className={styles.liveText}>
          <span className={styles.liveDot} data-status={live.status} />
          {t(`dashboard.live.${live.status}`)}
        </span>
        <span className={styles.spacer} />
        <Legend />
        {canEdit && image && (
          <Button
            icon={editing ? undefined : <EditOutlined />}
            type={editing ? 'primary' : 'default'}
            onClick={() => setEditing(!editing)}
            data-testid="map-edit"
          >
            {t(editing ? 'dashboard.map.done' : 'dashboard.map.edit')}
          </Button>
        )}
        {isEditing && uploadButton}
        {isEditing && (
          <Button danger icon={<DeleteOutlined />} onClick={onDeleteImage}>
            {t('dashboard.map.deleteImage')}
          </Button>
        )}
      </div>
      {map.isPending ? null : !image ? (
        <div className={styles.empty} data-testid="map-empty">
          <span>{t('dashboard.map.noImage')}</span>
          {canEdit ? (
            <>
              {uploadButton}
              <span className={styles.kpiNote}>
                {t('dashboard.map.uploadHint', { mb: MAP_IMAGE_MAX_BYTES / 1024 / 1024 })}
              </span>
            </>
          ) : (
            <span className={styles.kpiNote}>{t('dashboard.map.noImageAsk')}</span>
          )}
        </div>
      ) : (
        <div className={styles.mapArea}>
          <div className={`${styles.mapFrame} ${isEditing ? styles.editing : ''}`}>
            <div
              ref={box}
              role="application"
              aria-label={t('dashboard.map.title')}
              className={styles.mapBox}
              style={{ '--ratio': `${image.width} / ${image.height}` } as CSSProperties}
              onPointerMove={onPointerMove}
              onPointerUp={onPointerUp}
              onDragOver={(e) => isEditing && e.preventDefault()}
              onDrop={onDrop}
              data-testid="map-box"
            >
              {url && (
                <img className={styles.mapImage} src={url} alt={t('dashboard.map.title')} draggable={false} />
              )}
              {placements.map((p) => (
                <Marker
                  key={p.id}
                  placement={p}
                  live={live.values}
                  now={now}
                  powerMetric={powerMetric}
                  editing={isEditing}
                  drag={drag}
                  onPointerDown={onPointerDown}
                  onOpen={open}
                  onRemove={onRemove}
                />
              ))}
            </div>
            {placements.length === 0 && !isEditing && (
              <span className={styles.kpiNote} style={{ position: 'absolute', bottom: 0 }}>
                {t('dashboard.map.empty')}
              </span>
            )}
          </div>
          {isEditing && <Palette placements={placements} />}
        </div>
      )}
    </section>
  );
}
