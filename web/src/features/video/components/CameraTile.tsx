import { CloseOutlined, FullscreenOutlined, ReloadOutlined } from '@ant-design/icons';
import type { Camera } from '@kilowatch/contract';
import { Button, Spin, Tag, Tooltip, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatPlantTime } from '../../../lib/plant-calendar.ts';
import { NO_SIGNAL_MS, type PlayerError, type PlayerState, play } from '../lib/player.ts';
import { sourceOf } from '../lib/sources.ts';
import styles from './video.module.css';

const STATE_COLOR = {
  loading: 'processing',
  playing: 'success',
  noSignal: 'warning',
  error: 'error',
} as const;

/** The reason under an error, in the user's language. */
function useErrorText() {
  const { t } = useTranslation();
  return (error: PlayerError) =>
    error.key === 'http'
      ? t('video.error.http', { status: error.status })
      : error.key === 'before' || error.key === 'after'
        ? t(`video.error.${error.key}`, {
            first: formatPlantTime(error.first),
            last: formatPlantTime(error.last),
          })
        : t(`video.error.${error.key}`);
}

/**
 * One camera in the grid: its name and state (connecting, playing, no signal, error with the
 * reason), full screen, and, in the wall, selection and removal. With `at` it plays the recording
 * of that moment where the camera has one.
 */
export function CameraTile({
  camera,
  at = null,
  selected = false,
  onSelect,
  onRemove,
  note,
}: {
  camera: Camera;
  at?: number | null;
  selected?: boolean;
  onSelect?(): void;
  onRemove?(): void;
  note?: string;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const frame = useRef<HTMLElement>(null);
  const video = useRef<HTMLVideoElement>(null);
  const [state, setState] = useState<PlayerState>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const { source, recording } = sourceOf(camera, at);
  const sourceKey = source ? JSON.stringify(source) : null;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the source is keyed by its JSON; attempt restarts it
  useEffect(() => {
    const element = video.current;
    if (!element || !source) return;
    return play(element, source, setState);
  }, [sourceKey, attempt]);

  const shown = source ? state.state : 'noSource';
  const tagColor = shown === 'noSource' ? 'default' : STATE_COLOR[shown];
  return (
    // A labelled group, not a button: it holds buttons (and a video with controls).
    <section
      ref={frame}
      aria-label={camera.name}
      className={`${styles.tile} ${selected ? styles.selected : ''}`}
      data-testid={`camera-tile-${camera.id}`}
      data-state={shown}
    >
      <div className={styles.bar}>
        <Typography.Text strong ellipsis className={styles.name} title={camera.name}>
          {camera.name}
        </Typography.Text>
        {recording && <Tag color="purple">{t('video.state.recording')}</Tag>}
        <Tag color={tagColor} data-testid="camera-state">
          {t(`video.state.${shown}`)}
        </Tag>
        <Tooltip title={t('video.fullScreen')}>
          <Button
            size="small"
            type="text"
            aria-label={t('video.fullScreen')}
            icon={<FullscreenOutlined />}
            // Refused (a frame without the permission): the tile simply stays in the grid.
            onClick={() => frame.current?.requestFullscreen?.().catch(() => undefined)}
          />
        </Tooltip>
        {onRemove && (
          <Tooltip title={t('video.remove')}>
            <Button
              size="small"
              type="text"
              aria-label={t('video.remove')}
              icon={<CloseOutlined />}
              onClick={onRemove}
            />
          </Tooltip>
        )}
      </div>
      <div className={styles.screen}>
        {/* Muted: browsers let only muted video start by itself; recordings get controls to scrub. */}
        {/* The picture itself selects the tile in the wall (it has no controls there). */}
        {onSelect && (
          <button
            type="button"
            className={styles.pick}
            aria-label={t('video.select', { name: camera.name })}
            aria-pressed={selected}
            onClick={onSelect}
          />
        )}
        <video
          ref={video}
          className={styles.video}
          muted
          playsInline
          controls={recording}
          data-testid="camera-video"
        />
        {shown === 'loading' && (
          <div className={styles.overlay}>
            <Spin />
          </div>
        )}
        {shown === 'noSource' && <div className={styles.overlay}>{t('video.noSource')}</div>}
        {shown === 'noSignal' && (
          <div className={styles.overlay}>{t('video.noSignalHint', { seconds: NO_SIGNAL_MS / 1000 })}</div>
        )}
        {state.state === 'error' && source && (
          <div className={styles.overlay} data-testid="camera-error">
            <span>{errorText(state.error)}</span>
            <Button size="small" icon={<ReloadOutlined />} onClick={() => setAttempt((n) => n + 1)}>
              {t('video.retry')}
            </Button>
          </div>
        )}
        {note && <div className={styles.note}>{note}</div>}
      </div>
    </section>
  );
}
