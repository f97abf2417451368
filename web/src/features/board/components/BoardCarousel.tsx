import {
  CloseOutlined,
  FullscreenOutlined,
  LeftOutlined,
  PauseCircleOutlined,
  RightOutlined,
} from '@ant-design/icons';
import { type BoardPage, boardRotation } from '@kilowatch/contract';
import { Button, Empty, Space, Spin, Tag, Tooltip, Typography } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BOARD_PAGES_REFRESH_MS, useBoardComponents, useBoardPages } from '../../../api/board.ts';
import { useCarousel } from '../hooks/use-carousel.ts';
import { PageGrid } from './PageGrid.tsx';

/** Gaps of the grid (react-grid-layout margin) and the header's height on the wall screen, in pixels. */
const MARGIN = 12;
const HEADER = 56;
const PADDING = 16;

/** Row height that fits a page's rows into the screen's height (at least 24 px). */
export const fitRowHeight = (rows: number, screenHeight: number) =>
  rows > 0
    ? Math.max(24, Math.floor((screenHeight - HEADER - 2 * PADDING - (rows - 1) * MARGIN) / rows))
    : 40;

function useScreenHeight() {
  const [height, setHeight] = useState(() => window.innerHeight);
  useEffect(() => {
    const resize = () => setHeight(window.innerHeight);
    window.addEventListener('resize', resize);
    return () => window.removeEventListener('resize', resize);
  }, []);
  return height;
}

/** A pointer left resting on the board stops pausing it after this long (a TV's mouse forgotten on the screen). */
export const HOVER_IDLE_MS = 30_000;

/**
 * Paused while the pointer moves over the board's content, and until it leaves or rests for
 * HOVER_IDLE_MS: pause on hover, without a forgotten mouse stopping a TV for good.
 */
function useHoverPause() {
  const [paused, setPaused] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const move = useCallback(() => {
    setPaused(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setPaused(false), HOVER_IDLE_MS);
  }, []);
  const leave = useCallback(() => {
    clearTimeout(timer.current);
    setPaused(false);
  }, []);
  return { paused, move, leave };
}

export interface BoardCarouselProps {
  onExit: () => void;
}

/**
 * The board on a TV: the whole window (and the whole screen when the browser allows), the
 * enabled pages in their rotation (boardRotation: weight and interval), pausing while the
 * pointer moves over a page. Pages and the shown page's components are read again every 30 s, so an
 * edit reaches the TV without a reload (docs/board.md).
 */
export function BoardCarousel({ onExit }: BoardCarouselProps) {
  const { t } = useTranslation();
  const pages = useBoardPages(BOARD_PAGES_REFRESH_MS);
  const { paused: hover, move, leave } = useHoverPause();
  const rotation = useMemo(() => boardRotation(pages.data ?? []), [pages.data]);
  const slots = useMemo(() => rotation.map((p) => ({ id: p.id, seconds: p.interval })), [rotation]);
  const { index, next, previous } = useCarousel(slots, hover);
  const page: BoardPage | undefined = rotation[index];
  const components = useBoardComponents(page?.id ?? null, BOARD_PAGES_REFRESH_MS);
  const screenHeight = useScreenHeight();

  useEffect(() => {
    const key = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onExit();
      if (e.key === 'ArrowRight') next();
      if (e.key === 'ArrowLeft') previous();
    };
    window.addEventListener('keydown', key);
    return () => window.removeEventListener('keydown', key);
  }, [onExit, next, previous]);

  const rows = (components.data ?? []).reduce((max, c) => Math.max(max, c.layout.y + c.layout.h), 0);
  const distinct = new Set(rotation.map((p) => p.id)).size;

  const body = () => {
    if (pages.isPending) return <Spin size="large" style={{ display: 'block', margin: '20vh auto' }} />;
    if (!page) return <Empty style={{ marginTop: '20vh' }} description={t('board.tv.noPages')} />;
    if (components.data && components.data.length === 0) {
      return <Empty style={{ marginTop: '20vh' }} description={t('board.noComponents')} />;
    }
    return (
      <PageGrid
        key={page.id}
        page={page}
        components={components.data ?? []}
        writable={false}
        tv
        time={Date.now()}
        rowHeight={fitRowHeight(rows, screenHeight)}
      />
    );
  };

  return (
    <section
      aria-label={t('board.tv.label')}
      data-testid="board-carousel"
      data-page={page?.id ?? ''}
      data-paused={hover ? 'true' : 'false'}
      style={{
        position: 'fixed',
        inset: 0,
        zIndex: 1000,
        overflow: 'auto',
        padding: PADDING,
        background: 'var(--ant-color-bg-layout, #f5f5f5)',
      }}
    >
      <header
        style={{ height: HEADER - 8, display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}
      >
        <Space size={12}>
          <Typography.Title level={3} style={{ margin: 0 }} data-testid="board-tv-title">
            {page?.name ?? t('board.title')}
          </Typography.Title>
          {page && <Typography.Text type="secondary">{page.regionName}</Typography.Text>}
          {hover && page && (
            <Tag icon={<PauseCircleOutlined />} color="orange" data-testid="board-paused">
              {t('board.tv.paused')}
            </Tag>
          )}
        </Space>
        <Space size={4}>
          {distinct > 0 && (
            <Typography.Text type="secondary" data-testid="board-tv-position">
              {t('board.tv.position', { index: index + 1, total: rotation.length })}
            </Typography.Text>
          )}
          <Tooltip title={t('board.tv.previous')}>
            <Button
              type="text"
              icon={<LeftOutlined />}
              aria-label={t('board.tv.previous')}
              onClick={previous}
            />
          </Tooltip>
          <Tooltip title={t('board.tv.next')}>
            <Button type="text" icon={<RightOutlined />} aria-label={t('board.tv.next')} onClick={next} />
          </Tooltip>
          <Tooltip title={t('board.tv.fullscreen')}>
            <Button
              type="text"
              icon={<FullscreenOutlined />}
              aria-label={t('board.tv.fullscreen')}
              onClick={() =>
                // Refused (a browser policy, a kiosk browser already full screen): the board
                // still fills the window, which is all a TV needs.
                void document.documentElement.requestFullscreen?.().catch(() => undefined)
              }
            />
          </Tooltip>
          <Tooltip title={t('board.tv.exit')}>
            <Button type="text" icon={<CloseOutlined />} aria-label={t('board.tv.exit')} onClick={onExit} />
          </Tooltip>
        </Space>
      </header>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the pointer only pauses the rotation; the keyboard steps it on the window (arrows, Esc) */}
      <div
        data-testid="board-content"
        onMouseMove={move}
        onMouseLeave={leave}
        style={{ minHeight: `calc(100vh - ${HEADER + 2 * PADDING}px)` }}
      >
        {body()}
      </div>
    </section>
  );
}
