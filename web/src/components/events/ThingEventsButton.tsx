import { HistoryOutlined } from '@ant-design/icons';
import type { ThingEvent, ThingEventKind } from '@kilowatch/contract';
import { Alert, Button, Drawer, Empty, Segmented, Spin, Tag, Timeline, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useThingEvents } from '../../api/alarms.ts';
import { usePlantCalendar } from '../../lib/plant-calendar.ts';
import { IconAction } from '../crud/IconAction.tsx';

const SPANS = { '24h': 24 * 3_600_000, '7d': 7 * 24 * 3_600_000, '30d': 30 * 24 * 3_600_000 } as const;
type Span = keyof typeof SPANS;

const COLOURS: Record<ThingEventKind, string> = {
  raised: 'red',
  returned: 'green',
  acknowledge: 'blue',
  comment: 'gray',
  shelve: 'orange',
  unshelve: 'orange',
  close: 'gray',
  maintenanceStart: 'purple',
  maintenanceEnd: 'purple',
};

/**
 * A device's event log (its alarms raised and returned, the operators' actions on them, its
 * maintenance windows), opened from the device's pages in a drawer; an alarm's event opens the
 * alarm. docs/alarms.md, "A device's event log".
 */
export function ThingEventsButton({
  thingId,
  name,
  link,
}: {
  thingId: number;
  name: string;
  /** As an icon in a table's actions column (IconAction), not a labelled button. */
  link?: boolean;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const label = t('thingEvents.open');
  return (
    <>
      {link ? (
        <IconAction
          label={label}
          icon={<HistoryOutlined />}
          onClick={() => setOpen(true)}
          data-testid="thing-events"
        />
      ) : (
        <Button icon={<HistoryOutlined />} onClick={() => setOpen(true)} data-testid="thing-events">
          {label}
        </Button>
      )}
      {open && <ThingEventsDrawer thingId={thingId} name={name} onClose={() => setOpen(false)} />}
    </>
  );
}

function ThingEventsDrawer({ thingId, name, onClose }: { thingId: number; name: string; onClose(): void }) {
  const { t } = useTranslation();
  const calendar = usePlantCalendar();
  const [span, setSpan] = useState<Span>('7d');
  // The range ends when the drawer opened or the span changed, so the query key stays put.
  const [end, setEnd] = useState(() => Date.now());
  const events = useThingEvents(thingId, end - SPANS[span], end);
  const item = (e: ThingEvent) => {
    const title =
      e.alarmId === null ? (
        e.title
      ) : (
        <Link to={`/alarm_center/alarm_history?id=${e.alarmId}`}>{e.title}</Link>
      );
    return {
      key: `${e.kind}-${e.alarmId ?? ''}-${e.at}`,
      color: COLOURS[e.kind],
      content: (
        <div data-testid="thing-event">
          <Typography.Text type="secondary" style={{ fontVariantNumeric: 'tabular-nums' }}>
            {calendar.format(e.at, 'YYYY-MM-DD HH:mm:ss')}
          </Typography.Text>{' '}
          <Tag color={COLOURS[e.kind]}>{t(`thingEvents.kind.${e.kind}`)}</Tag>
          {title || t('thingEvents.noReason')}
          {e.username && <Typography.Text type="secondary"> · {e.username}</Typography.Text>}
          {e.comment && <div>{e.comment}</div>}
        </div>
      ),
    };
  };
  return (
    <Drawer
      open
      title={t('thingEvents.title', { name })}
      onClose={onClose}
      size={520}
      data-testid="thing-events-drawer"
    >
      <Segmented<Span>
        value={span}
        onChange={(v) => {
          setSpan(v);
          setEnd(Date.now());
        }}
        options={(Object.keys(SPANS) as Span[]).map((s) => ({ value: s, label: t(`thingEvents.span.${s}`) }))}
        style={{ marginBottom: 16 }}
      />
      {events.isError ? (
        <Alert type="error" title={t('thingEvents.failed')} />
      ) : !events.data ? (
        <Spin />
      ) : events.data.list.length === 0 ? (
        <Empty description={t('thingEvents.empty')} />
      ) : (
        <>
          {events.data.truncated && (
            <Alert type="info" title={t('thingEvents.truncated')} style={{ marginBottom: 12 }} />
          )}
          <Timeline items={events.data.list.map(item)} />
        </>
      )}
    </Drawer>
  );
}
