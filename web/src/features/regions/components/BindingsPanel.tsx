import { DisconnectOutlined, LinkOutlined, ReloadOutlined } from '@ant-design/icons';
import type { Binding, RegionNode } from '@kilowatch/contract';
import { Button, Card, Empty, Flex, Result, Select, Switch, Table, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBindings, useUnbindThings } from '../../../api/regions.ts';
import { useCategories } from '../../../api/things.ts';
import { useConfirmDelete } from '../../../components/crud/confirm-delete.tsx';
import { useSearchPatch } from '../../../lib/search-patch.ts';
import { useAbilities } from '../abilities.ts';
import { BindThingsModal } from './BindThingsModal.tsx';

/** The binding filters, kept in the address (`successor=1`, `categoryId=3`). */
function useBindingFilters() {
  const [search, patch] = useSearchPatch();
  const categoryId = Number(search.get('categoryId')) || undefined;
  const successor = search.get('successor') === '1';
  return {
    filters: { categoryId, successor },
    setCategoryId: (id?: number) => patch({ categoryId: id || null }),
    setSuccessor: (on: boolean) => patch({ successor: on ? '1' : null }),
  };
}

/** The devices bound to the selected region, optionally with its sub-regions'; editors bind and unbind. */
export function BindingsPanel({ region }: { region: RegionNode | null }) {
  const { t } = useTranslation();
  const askDelete = useConfirmDelete();
  const { canEditRegions } = useAbilities();
  const { filters, setCategoryId, setSuccessor } = useBindingFilters();
  const bindings = useBindings(region?.id ?? null, filters);
  const categories = useCategories();
  const unbind = useUnbindThings();
  const [picking, setPicking] = useState(false);

  const boundHere = useMemo(
    () => new Set((bindings.data ?? []).filter((b) => b.regionId === region?.id).map((b) => b.thing.id)),
    [bindings.data, region?.id],
  );

  if (!region) {
    return (
      <Card title={t('regions.bindings.title')} style={{ height: '100%' }}>
        <Empty description={t('regions.bindings.noSelection')} />
      </Card>
    );
  }

  const confirmUnbind = (b: Binding) =>
    askDelete({
      title: t('regions.bindings.unbindTitle'),
      content: t('regions.bindings.unbindConfirm', { thing: b.thing.name, region: b.regionName }),
      okText: t('regions.bindings.unbind'),
      onDelete: () => unbind.mutateAsync({ regionId: b.regionId, thingIds: [b.thing.id] }),
    });

  return (
    <Card
      title={t('regions.bindings.titleOf', { name: region.name })}
      style={{ height: '100%' }}
      extra={
        <Button
          size="small"
          icon={<ReloadOutlined />}
          aria-label={t('tabs.refresh')}
          onClick={() => bindings.refetch()}
        />
      }
    >
      <Flex gap={12} wrap align="center" style={{ marginBottom: 16 }}>
        <Select
          allowClear
          style={{ width: 200 }}
          placeholder={t('regions.bindings.allCategories')}
          value={filters.categoryId}
          loading={categories.isLoading}
          onChange={(id?: number) => setCategoryId(id)}
          options={(categories.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
          aria-label={t('regions.bindings.category')}
        />
        <Flex gap={6} align="center">
          <Switch
            size="small"
            checked={filters.successor}
            onChange={setSuccessor}
            aria-label={t('regions.bindings.successor')}
            data-testid="bindings-successor"
          />
          <Typography.Text>{t('regions.bindings.successor')}</Typography.Text>
        </Flex>
        {canEditRegions && (
          <Button
            type="primary"
            icon={<LinkOutlined />}
            onClick={() => setPicking(true)}
            data-testid="bind-things"
          >
            {t('regions.bindings.bind')}
          </Button>
        )}
      </Flex>
      {bindings.isError && !bindings.data ? (
        <Result
          status="error"
          title={t('regions.bindings.loadFailed')}
          subTitle={bindings.error.message}
          extra={<Button onClick={() => bindings.refetch()}>{t('common.retry')}</Button>}
        />
      ) : (
        <Table<Binding>
          rowKey={(b) => `${b.regionId}-${b.thing.id}`}
          loading={bindings.isFetching}
          dataSource={bindings.data ?? []}
          locale={{ emptyText: <Empty description={t('regions.bindings.empty')} /> }}
          scroll={{ x: 'max-content' }}
          pagination={{ showSizeChanger: true, showTotal: (total) => t('crud.total', { total }) }}
          columns={[
            { title: t('regions.bindings.fields.name'), key: 'name', render: (_, b) => b.thing.name },
            {
              title: t('regions.bindings.fields.identifier'),
              key: 'identifier',
              render: (_, b) => <code>{b.thing.identifier}</code>,
            },
            {
              title: t('regions.bindings.fields.category'),
              key: 'category',
              render: (_, b) => b.thing.categoryName,
            },
            { title: t('regions.bindings.fields.model'), key: 'model', render: (_, b) => b.thing.modelName },
            ...(filters.successor
              ? [{ title: t('regions.bindings.fields.region'), dataIndex: 'regionName', key: 'region' }]
              : []),
            ...(canEditRegions
              ? [
                  {
                    title: t('crud.actions'),
                    key: 'actions',
                    // Stays in view when the table scrolls sideways on narrower screens.
                    fixed: 'right' as const,
                    render: (_: unknown, b: Binding) => (
                      <Button
                        size="small"
                        type="link"
                        danger
                        icon={<DisconnectOutlined />}
                        onClick={() => confirmUnbind(b)}
                      >
                        {t('regions.bindings.unbind')}
                      </Button>
                    ),
                  },
                ]
              : []),
          ]}
        />
      )}
      {canEditRegions && (
        <BindThingsModal
          region={region}
          boundIds={boundHere}
          open={picking}
          onClose={() => setPicking(false)}
        />
      )}
    </Card>
  );
}
