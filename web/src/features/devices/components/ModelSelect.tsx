import type { Model } from '@kilowatch/contract';
import { Select, type SelectProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useModelOptions } from '../../../api/things.ts';

/** Models grouped by category; `categoryId` narrows the list to one category. */
export function ModelSelect({
  categoryId,
  ...props
}: Omit<SelectProps<number>, 'options'> & { categoryId?: number }) {
  const { t } = useTranslation();
  const models = useModelOptions();
  const groups = new Map<number, { label: string; options: { value: number; label: string }[] }>();
  for (const m of (models.data ?? []) as Model[]) {
    if (categoryId && m.categoryId !== categoryId) continue;
    const group = groups.get(m.categoryId) ?? { label: m.categoryName, options: [] };
    group.options.push({ value: m.id, label: m.name });
    groups.set(m.categoryId, group);
  }
  return (
    <Select<number>
      showSearch={{ optionFilterProp: 'label' }}
      loading={models.isFetching}
      placeholder={t('devices.common.selectModel')}
      notFoundContent={models.isError ? t('devices.common.loadFailed') : undefined}
      {...props}
      options={[...groups.values()]}
    />
  );
}
