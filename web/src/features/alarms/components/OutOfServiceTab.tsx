import { ReloadOutlined } from '@ant-design/icons';
import type { OutOfServiceEntry } from '@kilowatch/contract';
import { Button, Card, Empty, Result, Space, Table, type TableColumnsType, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOutOfService, useReturnToService } from '../../../api/alarms.ts';
import { useConfirmAction } from '../../../components/crud/confirm-delete.tsx';
import { formatPlantTime as formatTime } from '../../../lib/plant-calendar.ts';
import { useAlarmAbilities } from '../abilities.ts';

/**
 * Alarms out of service (ISA-18.2): what the engine does not watch, who took it out, when and why,
 * and the way back into service. Taking out happens on an alarm's detail.
 */
export function OutOfServiceTab() {
  const { t } = useTranslation();
  const confirm = useConfirmAction();
  const { canClose } = useAlarmAbilities();
  const [page, setPage] = useState({ page: 1, pageSize: 10 });
  const entries = useOutOfService(page);
  const back = useReturnToService();

  const confirmReturn = (e: OutOfServiceEntry) =>
    confirm({
      title: t('alarms.outOfService.returnTitle'),
      content: t('alarms.outOfService.returnConfirm', { name: e.name }),
      okText: t('alarms.outOfService.return'),
      done: t('alarms.outOfService.returned'),
      onOk: () => back.mutateAsync(e.id),
    });

  const columns: TableColumnsType<OutOfServiceEntry> = [
    {
      title: t('alarms.outOfService.what'),
      key: 'what',
      render: (_, e) => (
        <Space size={4}>
          <Tag>{t(e.monitorId === null ? 'alarms.outOfService.pair' : 'alarms.outOfService.monitor')}</Tag>
          {e.name}
        </Space>
      ),
    },
    { title: t('alarms.outOfService.reason'), dataIndex: 'reason' },
    { title: t('alarms.outOfService.by'), dataIndex: 'username' },
    { title: t('alarms.outOfService.since'), dataIndex: 'createdAt', render: formatTime },
    ...(canClose
      ? [
          {
            title: t('alarms.history.actions'),
            key: 'actions',
            render: (_: unknown, e: OutOfServiceEntry) => (
              <Button size="small" type="link" onClick={() => confirmReturn(e)} data-testid="oos-return">
                {t('alarms.outOfService.return')}
              </Button>
            ),
          },
        ]
      : []),
  ];

  return (
    <Card
      title={t('alarms.outOfService.title')}
      extra={
        <Button
          icon={<ReloadOutlined />}
          aria-label={t('alarms.history.refresh')}
          onClick={() => entries.refetch()}
        />
      }
      data-testid="alarm-out-of-service"
    >
      {entries.isError && !entries.data ? (
        <Result
          status="error"
          title={t('alarms.outOfService.loadFailed')}
          subTitle={entries.error.message}
          extra={<Button onClick={() => entries.refetch()}>{t('common.retry')}</Button>}
        />
      ) : (
        <Table<OutOfServiceEntry>
          rowKey="id"
          loading={entries.isFetching}
          dataSource={entries.data?.list ?? []}
          columns={columns}
          scroll={{ x: 'max-content' }}
          locale={{
            emptyText: (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('alarms.outOfService.empty')} />
            ),
          }}
          pagination={{
            current: page.page,
            pageSize: page.pageSize,
            total: entries.data?.total ?? 0,
            showTotal: (total) => t('crud.total', { total }),
            onChange: (p, pageSize) => setPage({ page: pageSize === page.pageSize ? p : 1, pageSize }),
          }}
        />
      )}
    </Card>
  );
}
