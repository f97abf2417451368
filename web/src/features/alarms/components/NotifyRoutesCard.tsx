import { DeleteOutlined, EditOutlined, PlusOutlined, SendOutlined } from '@ant-design/icons';
import type { NotifyRoute } from '@kilowatch/contract';
import {
  Alert,
  Button,
  Card,
  Empty,
  Result,
  Space,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeleteNotifyRoute, useNotifyRoutes, useTestNotifyRoute } from '../../../api/alarms.ts';
import { useConfirmDelete } from '../../../components/crud/confirm-delete.tsx';
import { NotifyRouteDialog } from './NotifyRouteDialog.tsx';
import { SeverityTag } from './tags.tsx';

// ---- routes -------------------------------------------------------------------------------------

export function NotifyRoutesCard() {
  const { t } = useTranslation();
  const routes = useNotifyRoutes();
  const remove = useDeleteNotifyRoute();
  const test = useTestNotifyRoute();
  const confirmDelete = useConfirmDelete();
  const [editing, setEditing] = useState<{ route: NotifyRoute | null } | null>(null);
  const [tested, setTested] = useState<{ name: string; ok: boolean; error: string | null } | null>(null);

  const runTest = (r: NotifyRoute) =>
    test.mutate(r.id, { onSuccess: (result) => setTested({ name: r.name, ...result }) });

  const columns: TableColumnsType<NotifyRoute> = [
    { title: t('alarms.notify.route.name'), dataIndex: 'name' },
    {
      title: t('alarms.notify.route.channel'),
      dataIndex: 'channel',
      render: (c: NotifyRoute['channel']) => <Tag>{t(`alarms.notify.channels.${c}`)}</Tag>,
    },
    {
      title: t('alarms.notify.route.destination'),
      key: 'destination',
      render: (_, r) => (
        <Typography.Text style={{ maxWidth: 320 }} ellipsis={{ tooltip: true }}>
          {r.channel === 'webhook' ? r.url : r.recipients.join(', ')}
        </Typography.Text>
      ),
    },
    {
      title: t('alarms.notify.route.severities'),
      dataIndex: 'severities',
      render: (list: NotifyRoute['severities']) => (
        <Space size={2} wrap>
          {list.map((s) => (
            <SeverityTag key={s} severity={s} />
          ))}
        </Space>
      ),
    },
    {
      title: t('alarms.notify.route.events'),
      dataIndex: 'events',
      render: (list: NotifyRoute['events']) => list.map((e) => t(`alarms.notify.events.${e}`)).join(' · '),
    },
    {
      title: t('alarms.notify.route.enabled'),
      dataIndex: 'enabled',
      render: (on: boolean) => (
        <Tag color={on ? 'green' : 'default'}>{t(on ? 'alarms.notify.on' : 'alarms.notify.off')}</Tag>
      ),
    },
    {
      title: t('crud.actions'),
      key: 'actions',
      onHeaderCell: () => ({ style: { whiteSpace: 'nowrap' } }),
      render: (_, r) => (
        <Space size={4} wrap={false}>
          <Button
            size="small"
            type="link"
            icon={<SendOutlined />}
            loading={test.isPending && test.variables === r.id}
            onClick={() => runTest(r)}
          >
            {t('alarms.notify.sendTest')}
          </Button>
          <Button size="small" type="link" icon={<EditOutlined />} onClick={() => setEditing({ route: r })}>
            {t('crud.edit')}
          </Button>
          <Button
            size="small"
            type="link"
            danger
            icon={<DeleteOutlined />}
            onClick={() =>
              confirmDelete({
                content: t('alarms.notify.route.deleteConfirm', { name: r.name }),
                onDelete: () => remove.mutateAsync(r.id),
              })
            }
          >
            {t('crud.delete')}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <Card
      title={t('alarms.notify.route.title')}
      extra={
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setEditing({ route: null })}
          data-testid="notify-route-create"
        >
          {t('alarms.notify.route.add')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('alarms.notify.route.hint')}</Typography.Paragraph>
      {tested && (
        <div style={{ marginBottom: 16 }}>
          <Alert
            type={tested.ok ? 'success' : 'error'}
            showIcon
            closable={{ onClose: () => setTested(null) }}
            title={t(tested.ok ? 'alarms.notify.route.testOk' : 'alarms.notify.route.testFailed', {
              name: tested.name,
            })}
            description={tested.error ?? undefined}
            data-testid="notify-test-result"
          />
        </div>
      )}
      {routes.isError && !routes.data ? (
        <Result
          status="error"
          title={t('crud.loadFailed')}
          subTitle={routes.error.message}
          extra={<Button onClick={() => routes.refetch()}>{t('common.retry')}</Button>}
        />
      ) : (
        <Table<NotifyRoute>
          rowKey="id"
          loading={routes.isFetching}
          dataSource={routes.data ?? []}
          columns={columns}
          pagination={false}
          scroll={{ x: 'max-content' }}
          data-testid="notify-routes"
          locale={{
            emptyText: (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('alarms.notify.route.empty')} />
            ),
          }}
        />
      )}
      <NotifyRouteDialog editing={editing} onClose={() => setEditing(null)} />
    </Card>
  );
}
