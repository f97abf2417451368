import { AppstoreOutlined } from '@ant-design/icons';
import type { Model, ModelInput } from '@kilowatch/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { keys, thenInvalidate } from '../../../api/keys.ts';
import { createModel, deleteModel, getModels, updateModel } from '../../../api/things.ts';
import { CrudPage } from '../../../components/crud/CrudPage.tsx';
import { CategorySelect } from './CategorySelect.tsx';
import { ModelAbilitiesDrawer } from './ModelAbilitiesDrawer.tsx';
import { useIdFilters } from './use-id-filter.ts';

const FILTERS = ['categoryId'] as const;

const clean = (values: ModelInput): ModelInput => ({
  categoryId: values.categoryId,
  name: values.name.trim(),
  description: values.description?.trim() ?? '',
});

/** /device_management/model: models of each category and their ability overrides. */
export function ModelPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [filters, setFilters] = useIdFilters(FILTERS);
  const [abilitiesOf, setAbilitiesOf] = useState<Model | null>(null);
  // Categories count their models; things show their model's name.
  const refreshAll = [keys.things.all] as const;

  return (
    <>
      <CrudPage<Model, ModelInput>
        queryKey={keys.things.models.list(filters)}
        title={t('route.model')}
        searchPlaceholder={t('devices.model.searchPlaceholder')}
        fetchPage={(params) => getModels({ ...params, ...filters })}
        toolbar={
          <CategorySelect
            allowClear
            value={filters.categoryId}
            onChange={(categoryId) => setFilters({ categoryId })}
            placeholder={t('devices.common.allCategories')}
            style={{ width: 200 }}
            aria-label={t('devices.common.categoryFilter')}
            data-testid="model-category-filter"
          />
        }
        columns={[
          { title: t('devices.model.fields.name'), dataIndex: 'name' },
          { title: t('devices.model.fields.category'), dataIndex: 'categoryName' },
          { title: t('devices.model.fields.description'), dataIndex: 'description', ellipsis: true },
          { title: t('devices.model.fields.thingCount'), dataIndex: 'thingCount', align: 'right' },
        ]}
        toFormValues={(row) => ({ categoryId: row.categoryId, name: row.name, description: row.description })}
        create={thenInvalidate(queryClient, refreshAll, (values: ModelInput) => createModel(clean(values)))}
        update={thenInvalidate(queryClient, refreshAll, (id: number, values: ModelInput) =>
          updateModel(id, clean(values)),
        )}
        remove={thenInvalidate(queryClient, refreshAll, (row: Model) => deleteModel(row.id))}
        describeRow={(row) => row.name}
        rowActions={(row) => (
          <Button size="small" type="link" icon={<AppstoreOutlined />} onClick={() => setAbilitiesOf(row)}>
            {t('devices.common.abilities')}
          </Button>
        )}
        renderForm={(_, editing) => (
          <>
            <Form.Item
              name="categoryId"
              label={t('devices.model.fields.category')}
              initialValue={editing ? undefined : filters.categoryId}
              rules={[{ required: true, message: t('devices.validation.categoryRequired') }]}
            >
              <CategorySelect />
            </Form.Item>
            <Form.Item
              name="name"
              label={t('devices.model.fields.name')}
              rules={[
                { required: true, whitespace: true, message: t('devices.validation.nameRequired') },
                { max: 64, message: t('devices.validation.maxLength', { max: 64 }) },
              ]}
            >
              <Input maxLength={64} />
            </Form.Item>
            <Form.Item
              name="description"
              label={t('devices.model.fields.description')}
              rules={[{ max: 500, message: t('devices.validation.maxLength', { max: 500 }) }]}
            >
              <Input.TextArea rows={3} showCount maxLength={500} />
            </Form.Item>
          </>
        )}
      />
      <ModelAbilitiesDrawer model={abilitiesOf} onClose={() => setAbilitiesOf(null)} />
    </>
  );
}
