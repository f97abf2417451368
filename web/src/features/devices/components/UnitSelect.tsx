import { Select, type SelectProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useUnits } from '../../../api/units.ts';

type UnitSelectProps = Omit<SelectProps<string>, 'options' | 'value' | 'onChange'> & {
  /** A unit symbol; '' means no unit. */
  value?: string;
  onChange?(value: string): void;
};

/** Picks a unit symbol from the cached unit list; keeps a value not in the list visible. */
export function UnitSelect({ value, onChange, ...props }: UnitSelectProps) {
  const { t } = useTranslation();
  const units = useUnits();
  const options = (units.data ?? []).map((u) => ({
    value: u.symbol,
    label: `${u.symbol} · ${u.name}`,
    search: `${u.symbol} ${u.name} ${u.quantity}`,
  }));
  if (value && !options.some((o) => o.value === value)) {
    options.unshift({ value, label: value, search: value });
  }
  return (
    <Select<string>
      allowClear
      showSearch={{ optionFilterProp: 'search' }}
      loading={units.isFetching && !units.data}
      placeholder={t('devices.ability.unitPlaceholder')}
      notFoundContent={units.isError ? t('devices.common.loadFailed') : undefined}
      popupMatchSelectWidth={false}
      {...props}
      // The contract stores "no unit" as ''; the select shows its placeholder for it.
      value={value || undefined}
      onChange={(next) => onChange?.(next ?? '')}
      options={options}
    />
  );
}
