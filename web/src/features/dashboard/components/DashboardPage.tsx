import {
  ArrowLeftOutlined,
  DesktopOutlined,
  FullscreenExitOutlined,
  FullscreenOutlined,
} from '@ant-design/icons';
import { theme as antdTheme, Button, ConfigProvider, Space, Tooltip } from 'antd';
import { type CSSProperties, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useOverview } from '../../../api/dashboard.ts';
import { usePlantCalendar } from '../../../lib/plant-calendar.ts';
import { useSearchPatch } from '../../../lib/search-patch.ts';
import { isAdmin, isGranted, useSession } from '../../../lib/session.ts';
import { useFullscreen, useNow, useViewportScale } from '../lib/hooks.ts';
import styles from './dashboard.module.css';
import { KpiPanel } from './KpiPanel.tsx';
import { SituationMap } from './SituationMap.tsx';
import { TrendPanel } from './TrendPanel.tsx';

/** How often the page's own time moves on (markers' presence, the trends' day). */
const PAGE_TICK_MS = 5_000;

/** The plant's time, every second; alone in re-rendering that often. */
function PlantClock() {
  const { t } = useTranslation();
  const now = useNow(1000);
  const calendar = usePlantCalendar();
  return (
    <span className={styles.clock} title={t('dashboard.plantClock')} data-testid="dashboard-clock">
      {calendar.format(now, 'YYYY-MM-DD HH:mm:ss')}
    </span>
  );
}

/** The console route of this page: its grant lets a user edit the map (docs/dashboard.md). */
export const DASHBOARD_PATH = '/dashboard';

/**
 * The situation overview (/dashboard): a page of its own, outside the console's layout, for the
 * control-room wall. `?kiosk=1` hides every control (for a screen nobody touches); text and
 * charts follow the viewport, so 1920×1080 and 3840×2160 show the same page at two sizes.
 */
export function DashboardPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params, patchParams] = useSearchPatch();
  const kiosk = params.get('kiosk') === '1';
  const scale = useViewportScale();
  // Presence and the day's window need no finer tick; the clock ticks by itself, so the page's
  // markers and charts are not rendered again every second for days.
  const now = useNow(PAGE_TICK_MS);
  const [fullscreen, toggleFullscreen] = useFullscreen();
  const roles = useSession((s) => s.roles);
  const grants = useSession((s) => s.routes);
  const canEdit = !kiosk && (isAdmin(roles) || isGranted(grants, DASHBOARD_PATH));
  const overview = useOverview();

  const setKiosk = (on: boolean) => patchParams({ kiosk: on ? '1' : null });

  // antd's own sizes follow the page's, so buttons and inputs are as readable on the wall as text.
  const antdTheme_ = useMemo(
    () => ({
      algorithm: antdTheme.darkAlgorithm,
      token: {
        fontSize: Math.round(14 * scale),
        controlHeight: Math.round(32 * scale),
        borderRadius: Math.round(4 * scale),
      },
    }),
    [scale],
  );
  const style = { fontSize: `${16 * scale}px` } as CSSProperties;

  return (
    <ConfigProvider theme={antdTheme_}>
      <div className={styles.page} style={style} data-testid="dashboard-page" data-kiosk={kiosk}>
        <header className={styles.header}>
          <h1 className={styles.title}>{t('route.dashboard')}</h1>
          {overview.data?.region && <span className={styles.subtitle}>{overview.data.region.name}</span>}
          <span className={styles.spacer} />
          <PlantClock />
          {!kiosk && (
            <Space>
              <Tooltip
                title={t(fullscreen ? 'dashboard.actions.exitFullscreen' : 'dashboard.actions.fullscreen')}
              >
                <Button
                  icon={fullscreen ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
                  onClick={toggleFullscreen}
                  aria-label={t(
                    fullscreen ? 'dashboard.actions.exitFullscreen' : 'dashboard.actions.fullscreen',
                  )}
                />
              </Tooltip>
              <Button icon={<DesktopOutlined />} onClick={() => setKiosk(true)} data-testid="dashboard-kiosk">
                {t('dashboard.actions.kiosk')}
              </Button>
              <Button icon={<ArrowLeftOutlined />} onClick={() => navigate('/home')}>
                {t('dashboard.actions.back')}
              </Button>
            </Space>
          )}
        </header>
        <main className={styles.body}>
          <KpiPanel overview={overview.data} />
          <SituationMap canEdit={canEdit} now={now} powerMetric={overview.data?.metrics.power ?? null} />
          <TrendPanel
            regionId={overview.data?.region?.id ?? null}
            metrics={overview.data?.metrics ?? null}
            now={now}
            scale={scale}
          />
        </main>
        {kiosk && (
          // Kiosk mode has no controls; a double click anywhere leaves it (nobody does that by accident on a wall).
          <button
            type="button"
            aria-label={t('dashboard.actions.exitKiosk')}
            onDoubleClick={() => setKiosk(false)}
            style={{
              position: 'fixed',
              inset: 'auto 0 0 auto',
              width: '3em',
              height: '3em',
              opacity: 0,
              border: 0,
            }}
          />
        )}
      </div>
    </ConfigProvider>
  );
}
