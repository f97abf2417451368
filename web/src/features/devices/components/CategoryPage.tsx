import { AppstoreOutlined } from '@ant-design/icons';
import type { Category, CategoryInput } from '@kilowatch/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { keys, thenInvalidate } from '../../../api/keys.ts';
import { createCategory, deleteCategory, getCategories, updateCategory } from '../../../api/things.ts';
import { CrudPage } from '../../../components/crud/CrudPage.tsx';
import { formatPlantTime } from '../../../lib/plant-calendar.ts';
import { CategoryAbilitiesDrawer } from './CategoryAbilitiesDrawer.tsx';

const clean = (values: CategoryInput): CategoryInput => ({
  name: values.name.trim(),
  description: values.description?.trim() ?? '',
});

/** /device_management/category: categories, and the abilities each defines. */
export function CategoryPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [abilitiesOf, setAbilitiesOf] = useState<Category | null>(null);
  // Category names show in the model and thing screens: refresh everything under /api/thing.
  const refreshAll = [keys.things.all] as const;

  return (
    <>
      <CrudPage<Category, CategoryInput>
        queryKey={keys.things.categories.all}
        title={t('route.category')}
        searchPlaceholder={t('devices.category.searchPlaceholder')}
        fetchPage={(params) => getCategories(params)}
        columns={[
          { title: t('devices.category.fields.name'), dataIndex: 'name' },
          { title: t('devices.category.fields.description'), dataIndex: 'description', ellipsis: true },
          { title: t('devices.category.fields.abilityCount'), dataIndex: 'abilityCount', align: 'right' },
          { title: t('devices.category.fields.modelCount'), dataIndex: 'modelCount', align: 'right' },
          {
            title: t('devices.common.updatedAt'),
            dataIndex: 'updatedAt',
            render: (value: string) => formatPlantTime(value),
          },
        ]}
        toFormValues={(row) => ({ name: row.name, description: row.description })}
        create={thenInvalidate(queryClient, refreshAll, (values: CategoryInput) =>
          createCategory(clean(values)),
        )}
        update={thenInvalidate(queryClient, refreshAll, (id: number, values: CategoryInput) =>
          updateCategory(id, clean(values)),
        )}
        remove={thenInvalidate(queryClient, refreshAll, (row: Category) => deleteCategory(row.id))}
        describeRow={(row) => row.name}
        rowActions={(row) => (
          <Button size="small" type="link" icon={<AppstoreOutlined />} onClick={() => setAbilitiesOf(row)}>
            {t('devices.common.abilities')}
          </Button>
        )}
        renderForm={() => (
          <>
            <Form.Item
              name="name"
              label={t('devices.category.fields.name')}
              rules={[
                { required: true, whitespace: true, message: t('devices.validation.nameRequired') },
                { max: 64, message: t('devices.validation.maxLength', { max: 64 }) },
              ]}
            >
              <Input autoFocus maxLength={64} />
            </Form.Item>
            <Form.Item
              name="description"
              label={t('devices.category.fields.description')}
              rules={[{ max: 500, message: t('devices.validation.maxLength', { max: 500 }) }]}
            >
              <Input.TextArea rows={3} showCount maxLength={500} />
            </Form.Item>
          </>
        )}
      />
      <CategoryAbilitiesDrawer category={abilitiesOf} onClose={() => setAbilitiesOf(null)} />
    </>
  );
}
