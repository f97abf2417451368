import type { CategoryAbility, CategoryAbilityInput, DataType } from '@kilowatch/contract';
import { Form, Input, InputNumber, Modal, Select, Space, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AbilitySave } from '../../../api/things.ts';
import { HttpError } from '../../../lib/http.ts';
import { notify } from '../../../lib/notify.ts';
import { AbilityNameField } from './AbilityNameField.tsx';
import { aggregatorOptions, dataTypeOptions, identifierRules } from './ability-options.ts';
import { EnumOptionsEditor } from './EnumOptionsEditor.tsx';
import { UnitSelect } from './UnitSelect.tsx';

export type AbilityValues = Required<CategoryAbilityInput>;

const DEFAULTS: Omit<AbilityValues, 'identifier' | 'name' | 'sort'> = {
  unit: '',
  dataType: 'number',
  aggregator: 'avg',
  cumulative: false,
  enumOptions: [],
};

/** Values other than numbers are summarised by their latest reading, not an average. */
const NON_NUMERIC: readonly DataType[] = ['boolean', 'enum', 'string'];

/** Form values of a category ability → the create input or the batch-patch entry. */
function toAbilitySave(values: AbilityValues, editing: CategoryAbility | null): AbilitySave {
  const fields = {
    name: values.name.trim(),
    unit: values.unit ?? '',
    dataType: values.dataType,
    aggregator: values.aggregator,
    cumulative: values.cumulative ?? false,
    enumOptions:
      values.dataType === 'enum'
        ? (values.enumOptions ?? []).map((o) => ({ value: o.value.trim(), label: o.label.trim() }))
        : [],
    sort: values.sort ?? 0,
  };
  return editing
    ? { kind: 'update', patch: { id: editing.id, ...fields } }
    : { kind: 'create', input: { identifier: values.identifier.trim(), ...fields } };
}

/**
 * Add or edit one category ability. Mounted per opening, so its form starts from the row (or
 * the defaults); it stays open with the input when the server refuses.
 */
export function AbilityDialog({
  editing,
  nextSort,
  saving,
  onSave,
  onClose,
}: {
  editing: CategoryAbility | null;
  nextSort: number;
  saving: boolean;
  onSave(action: AbilitySave): Promise<unknown>;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<AbilityValues>();
  const initialValues: Partial<AbilityValues> = editing
    ? {
        identifier: editing.identifier,
        name: editing.name,
        unit: editing.unit,
        dataType: editing.dataType,
        aggregator: editing.aggregator,
        cumulative: editing.cumulative,
        enumOptions: editing.enumOptions,
        sort: editing.sort,
      }
    : { ...DEFAULTS, sort: nextSort };

  async function onFinish(values: AbilityValues) {
    try {
      await onSave(toAbilitySave(values, editing));
      notify.success(t(editing ? 'toast.updated' : 'toast.created'));
      onClose();
    } catch (e) {
      // The http module has shown the server's message; a clash also marks the identifier field.
      if (!editing && e instanceof HttpError && e.status === 409) {
        form.setFields([{ name: 'identifier', errors: [e.message] }]);
      }
    }
  }

  return (
    <Modal
      open
      title={editing ? t('devices.ability.editTitle') : t('devices.ability.createTitle')}
      width={600}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('common.confirm')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
    >
      <Form<AbilityValues>
        form={form}
        layout="vertical"
        onFinish={onFinish}
        name="category-ability"
        initialValues={initialValues}
        onValuesChange={(changed: Partial<AbilityValues>) => {
          if (changed.dataType && NON_NUMERIC.includes(changed.dataType))
            form.setFieldValue('aggregator', 'last');
          // A counter's natural aggregate is the sum of its increments, not an average of readings.
          if (changed.cumulative === true && form.getFieldValue('aggregator') === 'avg')
            form.setFieldValue('aggregator', 'sum');
          if (changed.dataType === 'enum' && !form.getFieldValue('enumOptions')?.length) {
            form.setFieldValue('enumOptions', [{ value: '', label: '' }]);
          }
        }}
      >
        <Form.Item
          name="identifier"
          label={t('devices.ability.fields.identifier')}
          rules={identifierRules(t)}
          extra={editing ? t('devices.ability.identifierLocked') : t('devices.ability.identifierHint')}
        >
          <Input disabled={editing != null} maxLength={64} autoComplete="off" />
        </Form.Item>
        <AbilityNameField />
        <Space size="middle" style={{ display: 'flex' }} align="start">
          <Form.Item name="unit" label={t('devices.ability.fields.unit')} style={{ minWidth: 200 }}>
            <UnitSelect />
          </Form.Item>
          <Form.Item name="dataType" label={t('devices.ability.fields.dataType')} style={{ minWidth: 140 }}>
            <Select options={dataTypeOptions(t)} />
          </Form.Item>
          <Form.Item
            name="aggregator"
            label={t('devices.ability.fields.aggregator')}
            style={{ minWidth: 140 }}
          >
            <Select options={aggregatorOptions(t)} />
          </Form.Item>
        </Space>
        <Form.Item noStyle dependencies={['dataType']}>
          {({ getFieldValue }) =>
            getFieldValue('dataType') === 'enum' && (
              <Form.Item label={t('devices.ability.fields.enumOptions')} required>
                <EnumOptionsEditor />
              </Form.Item>
            )
          }
        </Form.Item>
        <Space size="large" style={{ display: 'flex' }} align="start">
          <Form.Item
            name="cumulative"
            label={t('devices.ability.fields.cumulative')}
            valuePropName="checked"
            tooltip={t('devices.ability.cumulativeHint')}
          >
            <Switch />
          </Form.Item>
          <Form.Item
            name="sort"
            label={t('devices.ability.fields.sort')}
            rules={[{ required: true, message: t('devices.validation.sortRequired') }]}
          >
            <InputNumber min={0} max={100000} precision={0} />
          </Form.Item>
        </Space>
      </Form>
    </Modal>
  );
}
