import { DEFAULT_PAGE_SIZE, type RegionNode, type Thing } from '@kilowatch/contract';
import { Alert, Button, Flex, Input, Modal, Select, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBindThings } from '../../../api/regions.ts';
import { useCategories, useThingPicker } from '../../../api/things.ts';
import { notify } from '../../../lib/notify.ts';

/** Picks things to bind to `region`: name search, category filter, paging, checkboxes across pages. */
export function BindThingsModal({
  region,
  boundIds,
  open,
  onClose,
}: {
  region: RegionNode;
  /** Things already bound to this very region (shown checked and disabled). */
  boundIds: ReadonlySet<number>;
  open: boolean;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [params, setParams] = useState({
    name: '',
    categoryId: undefined as number | undefined,
    page: 1,
    pageSize: DEFAULT_PAGE_SIZE,
  });
  const [selected, setSelected] = useState<number[]>([]);
  const [noneSelected, setNoneSelected] = useState(false);
  const things = useThingPicker(params, open);
  const categories = useCategories();
  const bind = useBindThings();

  const close = () => {
    setSelected([]);
    setNoneSelected(false);
    onClose();
  };

  const onOk = () => {
    if (selected.length === 0) {
      setNoneSelected(true);
      return;
    }
    bind.mutate(
      { regionId: region.id, thingIds: selected },
      {
        onSuccess: () => {
          notify.success(t('toast.added'));
          close();
        },
      },
    );
  };

  return (
    <Modal
      open={open}
      width={760}
      title={t('regions.picker.title', { name: region.name })}
      onCancel={close}
      onOk={onOk}
      okText={t('common.confirm')}
      cancelText={t('common.cancel')}
      confirmLoading={bind.isPending}
      destroyOnHidden
    >
      <Flex gap={8} wrap style={{ marginBottom: 12 }}>
        <Input.Search
          allowClear
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          onSearch={(name) => setParams((p) => ({ ...p, name: name.trim(), page: 1 }))}
          placeholder={t('regions.picker.search')}
          style={{ width: 240 }}
          data-testid="picker-search"
        />
        <Select
          allowClear
          style={{ width: 200 }}
          placeholder={t('regions.bindings.allCategories')}
          value={params.categoryId}
          loading={categories.isLoading}
          onChange={(categoryId?: number) => setParams((p) => ({ ...p, categoryId, page: 1 }))}
          options={(categories.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
          aria-label={t('regions.bindings.category')}
        />
        <Typography.Text type="secondary" style={{ alignSelf: 'center' }}>
          {t('regions.picker.selected', { count: selected.length })}
        </Typography.Text>
      </Flex>
      {noneSelected && selected.length === 0 && (
        <Alert
          type="warning"
          showIcon
          title={t('regions.picker.noneSelected')}
          style={{ marginBottom: 12 }}
        />
      )}
      {things.isError && !things.data ? (
        <Alert
          type="error"
          showIcon
          title={t('regions.picker.loadFailed')}
          action={
            <Button size="small" onClick={() => things.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      ) : (
        <Table<Thing>
          size="small"
          rowKey="id"
          loading={things.isFetching}
          dataSource={things.data?.list ?? []}
          locale={{ emptyText: t('regions.picker.empty') }}
          rowSelection={{
            selectedRowKeys: [...selected, ...boundIds],
            preserveSelectedRowKeys: true,
            getCheckboxProps: (thing) => ({ disabled: boundIds.has(thing.id) }),
            onChange: (keys) => setSelected(keys.map(Number).filter((id) => !boundIds.has(id))),
          }}
          columns={[
            {
              title: t('regions.bindings.fields.name'),
              dataIndex: 'name',
              render: (name: string, thing) => (
                <>
                  {name} {boundIds.has(thing.id) && <Tag>{t('regions.picker.bound')}</Tag>}
                </>
              ),
            },
            { title: t('regions.bindings.fields.identifier'), dataIndex: 'identifier' },
            { title: t('regions.bindings.fields.category'), dataIndex: 'categoryName' },
            { title: t('regions.bindings.fields.model'), dataIndex: 'modelName' },
          ]}
          pagination={{
            current: params.page,
            pageSize: params.pageSize,
            total: things.data?.total ?? 0,
            showSizeChanger: true,
            showTotal: (total) => t('crud.total', { total }),
            onChange: (page, pageSize) =>
              setParams((p) => ({ ...p, page: pageSize === p.pageSize ? page : 1, pageSize })),
          }}
        />
      )}
    </Modal>
  );
}
