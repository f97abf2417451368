import { DeleteOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import type { AlarmMonitor } from '@kilowatch/contract';
import { Button, Empty, Result, Select, Space, Table, type TableColumnsType, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAlarmMonitors, useDeleteMonitor } from '../../../api/alarms.ts';
import { useConfirmDelete } from '../../../components/crud/confirm-delete.tsx';
import { formatPlantTime as formatTime } from '../../../lib/plant-calendar.ts';
import { useAlarmAbilities } from '../abilities.ts';
import { ApplyMonitorsDialog } from './ApplyMonitorsDialog.tsx';

/** Monitors: which rule or template watches which device or region. */
export function MonitorsTab() {
  const { t } = useTranslation();
  const { canEditRules } = useAlarmAbilities();
  const [appliedType, setAppliedType] = useState<'rule' | 'template' | undefined>();
  const [page, setPage] = useState({ page: 1, pageSize: 10 });
  const monitors = useAlarmMonitors({ ...page, appliedType });
  const remove = useDeleteMonitor();
  const [applying, setApplying] = useState(false);

  const askDelete = useConfirmDelete();
  const confirmDelete = (m: AlarmMonitor) =>
    askDelete({
      content: t('alarms.monitor.deleteConfirm', { applied: m.appliedName, target: m.targetName }),
      onDelete: () => remove.mutateAsync(m.id),
    });

  const columns: TableColumnsType<AlarmMonitor> = [
    {
      title: t('alarms.monitor.applied'),
      key: 'applied',
      render: (_, m) => (
        <Space size={4}>
          <Tag>{t(`alarms.monitor.type.${m.appliedType}`)}</Tag>
          {m.appliedName}
        </Space>
      ),
    },
    {
      title: t('alarms.monitor.target'),
      key: 'target',
      render: (_, m) => (
        <Space size={4}>
          <Tag>{t(`alarms.resourceType.${m.targetType}`)}</Tag>
          {m.targetName}
        </Space>
      ),
    },
    { title: t('alarms.monitor.createdAt'), dataIndex: 'createdAt', render: formatTime },
    ...(canEditRules
      ? [
          {
            title: t('crud.actions'),
            key: 'actions',
            render: (_: unknown, m: AlarmMonitor) => (
              <Button
                size="small"
                type="link"
                danger
                icon={<DeleteOutlined />}
                onClick={() => confirmDelete(m)}
              >
                {t('crud.delete')}
              </Button>
            ),
          },
        ]
      : []),
  ];

  if (monitors.isError && !monitors.data) {
    return (
      <Result
        status="error"
        title={t('crud.loadFailed')}
        subTitle={monitors.error.message}
        extra={<Button onClick={() => monitors.refetch()}>{t('common.retry')}</Button>}
      />
    );
  }

  return (
    <>
      <Space wrap style={{ marginBottom: 16 }}>
        <Select
          allowClear
          style={{ width: 160 }}
          placeholder={t('alarms.monitor.appliedType')}
          aria-label={t('alarms.monitor.appliedType')}
          value={appliedType}
          onChange={(v) => {
            setAppliedType(v);
            setPage((p) => ({ ...p, page: 1 }));
          }}
          options={[
            { value: 'rule', label: t('alarms.monitor.type.rule') },
            { value: 'template', label: t('alarms.monitor.type.template') },
          ]}
        />
        {canEditRules && (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setApplying(true)}
            data-testid="monitor-create"
          >
            {t('alarms.monitor.apply')}
          </Button>
        )}
        <Button
          icon={<ReloadOutlined />}
          aria-label={t('alarms.history.refresh')}
          onClick={() => monitors.refetch()}
        />
      </Space>
      <Table<AlarmMonitor>
        rowKey="id"
        loading={monitors.isFetching}
        dataSource={monitors.data?.list ?? []}
        columns={columns}
        scroll={{ x: 'max-content' }}
        locale={{
          emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('alarms.monitor.empty')} />,
        }}
        pagination={{
          current: page.page,
          pageSize: page.pageSize,
          total: monitors.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: (total) => t('crud.total', { total }),
          onChange: (p, pageSize) => setPage({ page: pageSize === page.pageSize ? p : 1, pageSize }),
        }}
      />
      <ApplyMonitorsDialog applied={null} open={applying} onClose={() => setApplying(false)} />
    </>
  );
}
