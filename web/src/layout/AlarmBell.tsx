import { BellOutlined, MutedOutlined, SoundOutlined } from '@ant-design/icons';
import { type AlarmHistoryItem, SEVERITIES, type Severity } from '@kilowatch/contract';
import { Badge, Button, Empty, Popover, Tooltip } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useBellAlarms } from '../api/alarms.ts';
import { alarmValueText } from '../lib/alarm-value.ts';
import { formatPlantTime } from '../lib/plant-calendar.ts';
import { AlarmSound, type AlarmSoundOptions } from './alarm-sound.ts';
import { type BellMute, muteAfter, muteOver } from './bell-mute.ts';
import styles from './layout.module.css';

/** Spec §9: the badge shows at most 99 ("99+"), names are cut at 20 characters plus an ellipsis. */
const BADGE_CAP = 99;
const NAME_MAX = 20;

export const cutName = (name: string, max = NAME_MAX) => {
  const chars = Array.from(name);
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : name;
};

const HISTORY_PATH = '/alarm_center/alarm_history';

const mostSevere = (list: readonly AlarmHistoryItem[]): Severity =>
  SEVERITIES.find((s) => list.some((a) => a.severity === s)) ?? 'warning';

/**
 * The sound follows `ringing`: loops while true, pauses when false. Until the page has had a
 * user gesture the browser refuses audio; `blocked` says so, and the first click anywhere starts it.
 */
function useAlarmSound(ringing: boolean, severity: Severity, options?: AlarmSoundOptions) {
  const [blocked, setBlocked] = useState(false);
  const sound = useRef<AlarmSound | null>(null);
  sound.current ??= new AlarmSound({ ...options, onBlocked: setBlocked });

  useEffect(() => {
    if (ringing) sound.current?.play(severity);
    else sound.current?.pause();
  }, [ringing, severity]);

  useEffect(() => () => sound.current?.pause(), []);

  useEffect(() => {
    if (!blocked) return;
    const unlock = () => sound.current?.unlock();
    document.addEventListener('pointerdown', unlock, true);
    document.addEventListener('keydown', unlock, true);
    return () => {
      document.removeEventListener('pointerdown', unlock, true);
      document.removeEventListener('keydown', unlock, true);
    };
  }, [blocked]);

  return { blocked };
}

/**
 * The top bar's bell (spec §2, §4): polls the ringing alarms every 10 s and whenever an alarm write
 * invalidates `keys.alarms.all` (its key is under it), shows their count and the newest five, and sounds while any ring. "Mute until a new alarm"
 * silences it until an alarm not in the list at mute time appears (bell-mute.ts).
 */
export function AlarmBell({ sound: soundOptions }: { sound?: AlarmSoundOptions } = {}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data } = useBellAlarms();
  const [open, setOpen] = useState(false);
  const [mute, setMute] = useState<BellMute>(null);
  const { pathname, search } = useLocation();

  // Any navigation (a tab, the menu, back) closes the dropdown.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the location is the trigger
  useEffect(() => setOpen(false), [pathname, search]);

  const list = useMemo(() => data?.list ?? [], [data]);
  const size = data?.size ?? 0;
  const ids = useMemo(() => list.map((a) => a.id), [list]);

  useEffect(() => setMute((current) => muteAfter(current, ids)), [ids]);

  const muted = mute !== null;
  const ringing = size > 0 && list.length > 0 && !muted;
  const { blocked } = useAlarmSound(ringing, mostSevere(list), soundOptions);

  const go = (path: string) => {
    setOpen(false);
    navigate(path);
  };

  const content = (
    <div className={styles.bellPanel} data-testid="alarm-bell-panel">
      {list.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('alarmBell.empty')} />
      ) : (
        <ul className={styles.bellList}>
          {list.map((a) => (
            <li key={a.id}>
              <button
                type="button"
                className={styles.bellItem}
                data-testid="alarm-bell-item"
                onClick={() => go(`${HISTORY_PATH}?id=${a.id}`)}
              >
                <span className={styles.bellItemTitle}>
                  <span className={styles.bellType}>{t(`alarmBell.resourceType.${a.resourceType}`)}</span>
                  {cutName(a.resourceName)} · {cutName(a.ruleName)}
                </span>
                <span className={styles.bellItemValue} data-testid="alarm-bell-value">
                  {alarmValueText(a)}
                </span>
                <span className={styles.bellItemTime}>{formatPlantTime(a.alarmAt)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className={styles.bellFooter}>
        {size > 0 && (
          <Button
            size="small"
            type="text"
            icon={muted ? <SoundOutlined /> : <MutedOutlined />}
            onClick={() => setMute(muted ? null : muteOver(ids))}
            data-testid="alarm-bell-mute"
          >
            {t(muted ? 'alarmBell.unmute' : 'alarmBell.mute')}
          </Button>
        )}
        <Button size="small" type="link" onClick={() => go(HISTORY_PATH)} data-testid="alarm-bell-more">
          {t('alarmBell.viewMore')}
        </Button>
      </div>
    </div>
  );

  const label = t('alarmBell.label', { count: size });
  return (
    <>
      {muted && size > 0 && (
        <Tooltip title={t('alarmBell.muted')}>
          <MutedOutlined
            className={styles.bellMuted}
            aria-label={t('alarmBell.muted')}
            role="img"
            data-testid="alarm-bell-muted"
          />
        </Tooltip>
      )}
      {ringing && blocked && (
        <Tooltip title={t('alarmBell.blocked')}>
          <MutedOutlined className={styles.bellBlocked} aria-label={t('alarmBell.blocked')} role="img" />
        </Tooltip>
      )}
      <Popover
        trigger="click"
        placement="bottomRight"
        open={open}
        onOpenChange={setOpen}
        title={t('alarmBell.title')}
        content={content}
      >
        <Button type="text" aria-label={label} data-testid="alarm-bell">
          <Badge count={size} overflowCount={BADGE_CAP} size="small" data-testid="alarm-bell-badge">
            <BellOutlined className={styles.bellIcon} />
          </Badge>
        </Button>
      </Popover>
    </>
  );
}
