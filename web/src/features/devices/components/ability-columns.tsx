import type { EffectiveAbility } from '@kilowatch/contract';
import type { TableColumnsType } from 'antd';
import { Tag } from 'antd';
import type { TFunction } from 'i18next';

/** Columns of an effective-ability table (model and thing drawers); overridden rows get a tag. */
export const abilityColumns = (t: TFunction): TableColumnsType<EffectiveAbility> => [
  { title: t('devices.ability.fields.sort'), dataIndex: 'sort', width: 64 },
  { title: t('devices.ability.fields.identifier'), dataIndex: 'identifier' },
  {
    title: t('devices.ability.fields.name'),
    dataIndex: 'name',
    render: (name: string, row) => (
      <>
        {name}
        {row.overridden && (
          <Tag color="orange" style={{ marginInlineStart: 8 }}>
            {t('devices.model.overridden')}
          </Tag>
        )}
      </>
    ),
  },
  { title: t('devices.ability.fields.unit'), dataIndex: 'unit' },
  {
    title: t('devices.ability.fields.dataType'),
    dataIndex: 'dataType',
    render: (value: string) => t(`devices.ability.dataTypes.${value}`),
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
];
