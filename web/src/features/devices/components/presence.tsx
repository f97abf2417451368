import { LineChartOutlined } from '@ant-design/icons';
import { PRESENCE_STATES, type Presence } from '@kilowatch/contract';
import { Badge, Select, Tooltip, Typography } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useHref } from 'react-router';
import { IconAction } from '../../../components/crud/IconAction.tsx';
import { formatPlantTime } from '../../../lib/plant-calendar.ts';
import { useSearchPatch } from '../../../lib/search-patch.ts';

const STATUS: Record<Presence, 'success' | 'default' | 'warning'> = {
  online: 'success',
  offline: 'default',
  never: 'warning',
};

/** The presence filter of the device list, kept in the address (`?presence=`) like the others. */
export function usePresenceFilter(): [Presence | undefined, (next: Presence | undefined) => void] {
  const [search, patch] = useSearchPatch();
  const raw = search.get('presence');
  const value = PRESENCE_STATES.find((p) => p === raw);
  const update = useCallback((next: Presence | undefined) => patch({ presence: next, page: null }), [patch]);
  return [value, update];
}

export function PresenceSelect({
  value,
  onChange,
}: {
  value: Presence | undefined;
  onChange(next: Presence | undefined): void;
}) {
  const { t } = useTranslation();
  return (
    <Select<Presence>
      allowClear
      value={value}
      onChange={(v) => onChange(v ?? undefined)}
      placeholder={t('devices.presence.all')}
      aria-label={t('devices.presence.filter')}
      style={{ width: 150 }}
      options={PRESENCE_STATES.map((p) => ({ value: p, label: t(`devices.presence.${p}`) }))}
    />
  );
}

export function PresenceTag({ presence }: { presence: Presence }) {
  const { t } = useTranslation();
  return (
    <Badge
      status={STATUS[presence]}
      text={t(`devices.presence.${presence}`)}
      data-presence={presence}
      style={{ whiteSpace: 'nowrap' }}
    />
  );
}

/** When the device last sent a value: the time, and how long ago on hover. */
export function LastSeen({ at }: { at: number | null }) {
  const { t } = useTranslation();
  if (at === null) return <Typography.Text type="secondary">—</Typography.Text>;
  const minutes = Math.max(0, Math.round((Date.now() - at) / 60_000));
  return (
    <Tooltip title={t('devices.presence.ago', { count: minutes })}>
      <span style={{ whiteSpace: 'nowrap' }}>{formatPlantTime(at)}</span>
    </Tooltip>
  );
}

/**
 * A link to the real-time screen with this device selected: an icon (its name on hover and to
 * screen readers) in the device table's fixed actions column, which stays narrow in every language.
 */
export function LiveDataLink({ thingId }: { thingId: number }) {
  const { t } = useTranslation();
  const href = useHref(`/energy_monitor/realtime?resourceType=thing&resourceId=${thingId}`);
  return <IconAction label={t('devices.presence.liveData')} icon={<LineChartOutlined />} href={href} />;
}
