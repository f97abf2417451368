import { MinusCircleOutlined } from '@ant-design/icons';
import type { EffectiveAbility, Thing } from '@kilowatch/contract';
import { Button, Drawer, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRemoveThingAbilities, useThingAbilities } from '../../../api/things.ts';
import { useConfirmDelete } from '../../../components/crud/confirm-delete.tsx';
import { abilityColumns } from './ability-columns.tsx';
import { QueryResult } from './QueryResult.tsx';

/** A thing's effective abilities (its model's), from which some can be removed. */
export function ThingAbilitiesDrawer({ thing, onClose }: { thing: Thing | null; onClose(): void }) {
  const { t } = useTranslation();
  const askDelete = useConfirmDelete();
  const query = useThingAbilities(thing?.id ?? null);
  const remove = useRemoveThingAbilities(thing?.id ?? 0);
  const [selected, setSelected] = useState<number[]>([]);

  function confirmRemove(rows: EffectiveAbility[]) {
    if (!thing || rows.length === 0) return;
    askDelete({
      title: t('devices.thing.removeAbilitiesTitle'),
      content:
        rows.length === 1
          ? t('devices.thing.removeAbilityConfirm', { name: rows[0]!.name, thing: thing.name })
          : t('devices.thing.removeAbilitiesConfirm', { count: rows.length, thing: thing.name }),
      okText: t('devices.thing.removeAbility'),
      onDelete: () =>
        remove.mutateAsync(rows.map((r) => r.abilityId)).then(() => {
          setSelected((ids) => ids.filter((id) => !rows.some((r) => r.abilityId === id)));
        }),
    });
  }

  const rows = query.data ?? [];
  return (
    <Drawer
      open={thing != null}
      onClose={() => {
        setSelected([]);
        onClose();
      }}
      size={960}
      title={t('devices.thing.abilitiesTitle', { name: thing?.name ?? '' })}
      destroyOnHidden
      extra={
        <Button
          danger
          icon={<MinusCircleOutlined />}
          disabled={selected.length === 0}
          onClick={() => confirmRemove(rows.filter((r) => selected.includes(r.abilityId)))}
        >
          {t('devices.thing.removeSelected', { count: selected.length })}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('devices.thing.abilitiesHint')}</Typography.Paragraph>
      <QueryResult query={query}>
        <Table<EffectiveAbility>
          rowKey="abilityId"
          size="small"
          loading={query.isFetching}
          dataSource={rows}
          pagination={false}
          scroll={{ x: 'max-content' }}
          rowSelection={{
            selectedRowKeys: selected,
            onChange: (keys) => setSelected(keys as number[]),
          }}
          columns={[
            ...abilityColumns(t),
            {
              title: t('crud.actions'),
              key: 'actions',
              fixed: 'right',
              width: 1,
              render: (_, row) => (
                <Button
                  size="small"
                  type="link"
                  danger
                  icon={<MinusCircleOutlined />}
                  onClick={() => confirmRemove([row])}
                >
                  {t('devices.thing.removeAbility')}
                </Button>
              ),
            },
          ]}
        />
      </QueryResult>
    </Drawer>
  );
}
