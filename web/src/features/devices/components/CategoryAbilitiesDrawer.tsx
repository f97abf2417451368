import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import type { Category, CategoryAbility } from '@kilowatch/contract';
import { Button, Drawer, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCategoryAbilities, useCategoryAbilityMutations } from '../../../api/things.ts';
import { useConfirmDelete } from '../../../components/crud/confirm-delete.tsx';
import { AbilityDialog } from './AbilityDialog.tsx';
import { QueryResult } from './QueryResult.tsx';

/** The abilities a category defines: list, add, edit, delete. */
export function CategoryAbilitiesDrawer({
  category,
  onClose,
}: {
  category: Category | null;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const categoryId = category?.id ?? 0;
  const query = useCategoryAbilities(category?.id ?? null);
  const { save, remove } = useCategoryAbilityMutations(categoryId);
  // The dialog: null when closed, else the row being edited (or null inside for a new one).
  const [dialog, setDialog] = useState<{ editing: CategoryAbility | null } | null>(null);
  const nextSort = Math.max(-1, ...(query.data ?? []).map((a) => a.sort)) + 1;

  const openDialog = (editing: CategoryAbility | null) => setDialog({ editing });

  const askDelete = useConfirmDelete();
  const confirmDelete = (row: CategoryAbility) =>
    askDelete({
      content: t('devices.ability.deleteConfirm', { name: row.name }),
      onDelete: () => remove.mutateAsync(row.id),
    });

  return (
    <Drawer
      open={category != null}
      onClose={onClose}
      size={960}
      title={t('devices.ability.drawerTitle', { name: category?.name ?? '' })}
      destroyOnHidden
      extra={
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => openDialog(null)}
          disabled={!query.data}
        >
          {t('devices.ability.add')}
        </Button>
      }
    >
      <QueryResult query={query}>
        <Table<CategoryAbility>
          rowKey="id"
          size="small"
          loading={query.isFetching}
          dataSource={query.data ?? []}
          pagination={false}
          scroll={{ x: 'max-content' }}
          columns={[
            { title: t('devices.ability.fields.sort'), dataIndex: 'sort', width: 64 },
            { title: t('devices.ability.fields.identifier'), dataIndex: 'identifier' },
            { title: t('devices.ability.fields.name'), dataIndex: 'name' },
            { title: t('devices.ability.fields.unit'), dataIndex: 'unit' },
            {
              title: t('devices.ability.fields.dataType'),
              dataIndex: 'dataType',
              render: (_, row) => (
                <>
                  {t(`devices.ability.dataTypes.${row.dataType}`)}
                  {row.dataType === 'enum' && row.enumOptions.length > 0 && (
                    <div>
                      {row.enumOptions.map((o) => (
                        <Tag key={o.value}>{`${o.value}=${o.label}`}</Tag>
                      ))}
                    </div>
                  )}
                </>
              ),
            },
            {
              title: t('devices.ability.fields.aggregator'),
              dataIndex: 'aggregator',
              render: (value: string) => t(`devices.ability.aggregators.${value}`),
            },
            {
              title: t('devices.ability.fields.cumulative'),
              dataIndex: 'cumulative',
              render: (value: boolean) =>
                value ? <Tag color="blue">{t('devices.common.yes')}</Tag> : t('devices.common.no'),
            },
            {
              title: t('crud.actions'),
              key: 'actions',
              fixed: 'right',
              width: 1,
              render: (_, row) => (
                <Space size={4} wrap={false}>
                  <Button size="small" type="link" icon={<EditOutlined />} onClick={() => openDialog(row)}>
                    {t('crud.edit')}
                  </Button>
                  <Button
                    size="small"
                    type="link"
                    danger
                    icon={<DeleteOutlined />}
                    onClick={() => confirmDelete(row)}
                  >
                    {t('crud.delete')}
                  </Button>
                </Space>
              ),
            },
          ]}
        />
      </QueryResult>
      {dialog && (
        <AbilityDialog
          key={dialog.editing?.id ?? 'new'}
          editing={dialog.editing}
          nextSort={nextSort}
          saving={save.isPending}
          onSave={(action) => save.mutateAsync(action)}
          onClose={() => setDialog(null)}
        />
      )}
    </Drawer>
  );
}
