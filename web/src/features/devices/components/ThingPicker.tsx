import { Select, type SelectProps } from 'antd';
import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useThingSearch } from '../../../api/things.ts';
import { sortByName } from '../../../lib/natural-sort.ts';

/** A searchable thing select that asks the server (`?name=`) as the user types. */
export function ThingPicker({
  current,
  ...props
}: Omit<SelectProps<number>, 'options' | 'showSearch'> & { current?: { id: number; name: string } | null }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const name = useDeferredValue(search.trim());
  const things = useThingSearch(name);
  const options = sortByName(things.data ?? []).map((thing) => ({
    value: thing.id,
    label: `${thing.name} (${thing.identifier})`,
  }));
  if (current && !options.some((o) => o.value === current.id)) {
    options.unshift({ value: current.id, label: current.name });
  }
  return (
    <Select<number>
      showSearch={{ filterOption: false, onSearch: setSearch }}
      loading={things.isFetching}
      placeholder={t('devices.video.searchThing')}
      notFoundContent={things.isError ? t('devices.common.loadFailed') : undefined}
      {...props}
      options={options}
    />
  );
}
