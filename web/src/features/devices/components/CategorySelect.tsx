import { Select, type SelectProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCategoryOptions } from '../../../api/things.ts';

/** Every category by name, searchable. */
export function CategorySelect(props: Omit<SelectProps<number>, 'options'>) {
  const { t } = useTranslation();
  const categories = useCategoryOptions();
  return (
    <Select<number>
      showSearch={{ optionFilterProp: 'label' }}
      loading={categories.isFetching}
      placeholder={t('devices.common.selectCategory')}
      notFoundContent={categories.isError ? t('devices.common.loadFailed') : undefined}
      {...props}
      options={(categories.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
    />
  );
}
