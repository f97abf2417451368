import { ReloadOutlined } from '@ant-design/icons';
import { type NotifyOutboxItem, OUTBOX_STATUSES } from '@kilowatch/contract';
import { Button, Card, Result, Segmented, Space, type TableColumnsType, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useNotifyOutbox, useNotifyRoutes } from '../../../api/alarms.ts';
import { usePlantCalendar } from '../../../lib/plant-calendar.ts';
import { HISTORY_PATH } from '../abilities.ts';
import { PagedTable } from './PagedTable.tsx';

// ---- outbox -------------------------------------------------------------------------------------

export function NotifyOutboxCard() {
  const { t } = useTranslation();
  const calendar = usePlantCalendar();
  const [status, setStatus] = useState<NotifyOutboxItem['status'] | 'all'>('all');
  const [page, setPage] = useState({ page: 1, pageSize: 10 });
  const outbox = useNotifyOutbox({ ...page, status: status === 'all' ? undefined : status });
  const routes = useNotifyRoutes();
  const time = (iso: string | null) => (iso ? calendar.format(Date.parse(iso), 'YYYY-MM-DD HH:mm:ss') : '—');
  const routeName = (id: number) => routes.data?.find((r) => r.id === id)?.name ?? `#${id}`;
  const STATUS_COLOR = { pending: 'blue', sent: 'green', failed: 'red' } as const;

  const columns: TableColumnsType<NotifyOutboxItem> = [
    { title: t('alarms.notify.outbox.createdAt'), dataIndex: 'createdAt', render: time },
    {
      title: t('alarms.notify.outbox.alarm'),
      dataIndex: 'alarmId',
      render: (id: number) => <Link to={`${HISTORY_PATH}?id=${id}`}>#{id}</Link>,
    },
    { title: t('alarms.notify.outbox.route'), dataIndex: 'routeId', render: routeName },
    {
      title: t('alarms.notify.route.events'),
      dataIndex: 'event',
      render: (e: NotifyOutboxItem['event']) => t(`alarms.notify.events.${e}`),
    },
    {
      title: t('alarms.notify.outbox.status'),
      dataIndex: 'status',
      render: (s: NotifyOutboxItem['status']) => (
        <Tag color={STATUS_COLOR[s]}>{t(`alarms.notify.outbox.statuses.${s}`)}</Tag>
      ),
    },
    { title: t('alarms.notify.outbox.attempts'), dataIndex: 'attempts' },
    {
      title: t('alarms.notify.outbox.next'),
      key: 'next',
      render: (_, o) => (o.status === 'pending' ? time(o.nextAttemptAt) : '—'),
    },
    { title: t('alarms.notify.outbox.sentAt'), dataIndex: 'sentAt', render: time },
    {
      title: t('alarms.notify.outbox.lastError'),
      dataIndex: 'lastError',
      render: (e: string) =>
        e ? (
          <Typography.Text type="danger" style={{ maxWidth: 360 }} ellipsis={{ tooltip: e }}>
            {e}
          </Typography.Text>
        ) : (
          '—'
        ),
    },
  ];

  return (
    <Card
      title={t('alarms.notify.outbox.title')}
      extra={
        <Space>
          <Segmented<NotifyOutboxItem['status'] | 'all'>
            value={status}
            onChange={(v) => {
              setStatus(v);
              setPage((p) => ({ ...p, page: 1 }));
            }}
            options={[
              { value: 'all', label: t('alarms.notify.outbox.all') },
              ...OUTBOX_STATUSES.map((s) => ({ value: s, label: t(`alarms.notify.outbox.statuses.${s}`) })),
            ]}
          />
          <Button
            icon={<ReloadOutlined />}
            aria-label={t('alarms.history.refresh')}
            onClick={() => outbox.refetch()}
          />
        </Space>
      }
    >
      {outbox.isError && !outbox.data ? (
        <Result
          status="error"
          title={t('crud.loadFailed')}
          subTitle={outbox.error.message}
          extra={<Button onClick={() => outbox.refetch()}>{t('common.retry')}</Button>}
        />
      ) : (
        <PagedTable<NotifyOutboxItem>
          query={outbox}
          columns={columns}
          empty={t('alarms.notify.outbox.empty')}
          page={page}
          setPage={setPage}
          testId="notify-outbox"
        />
      )}
    </Card>
  );
}
