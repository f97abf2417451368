import { EditOutlined, UndoOutlined } from '@ant-design/icons';
import type { EffectiveAbility, Model, ModelAbilityPatch } from '@kilowatch/contract';
import { Button, Drawer, Form, InputNumber, Modal, Select, Space, Switch, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useModelAbilities, usePatchModelAbility } from '../../../api/things.ts';
import { useConfirmAction } from '../../../components/crud/confirm-delete.tsx';
import { notify } from '../../../lib/notify.ts';
import { AbilityNameField } from './AbilityNameField.tsx';
import { abilityColumns } from './ability-columns.tsx';
import { aggregatorOptions } from './ability-options.ts';
import { QueryResult } from './QueryResult.tsx';
import { UnitSelect } from './UnitSelect.tsx';

const OVERRIDABLE = ['name', 'unit', 'aggregator', 'cumulative', 'sort'] as const;
type OverrideValues = Pick<EffectiveAbility, (typeof OVERRIDABLE)[number]>;

/** Only the fields the user changed become overrides, so the rest keep following the category. */
export function overridePatch(
  modelId: number,
  row: EffectiveAbility,
  values: OverrideValues,
): ModelAbilityPatch {
  const patch: ModelAbilityPatch = { modelId };
  const next = { ...values, name: values.name.trim(), unit: values.unit ?? '' };
  for (const key of OVERRIDABLE) {
    if (next[key] !== row[key]) Object.assign(patch, { [key]: next[key] });
  }
  return patch;
}

/** A model's effective abilities: the category's, with this model's overrides (marked). */
export function ModelAbilitiesDrawer({ model, onClose }: { model: Model | null; onClose(): void }) {
  const { t } = useTranslation();
  const confirm = useConfirmAction();
  const query = useModelAbilities(model?.id ?? null);
  const patch = usePatchModelAbility();
  const [editing, setEditing] = useState<EffectiveAbility | null>(null);

  function confirmReset(row: EffectiveAbility) {
    if (!model) return;
    confirm({
      title: t('devices.model.resetTitle'),
      content: t('devices.model.resetConfirm', { name: row.name }),
      okText: t('common.confirm'),
      done: t('toast.done'),
      onOk: () => patch.mutateAsync({ abilityId: row.abilityId, patch: { modelId: model.id, reset: true } }),
    });
  }

  return (
    <Drawer
      open={model != null}
      onClose={onClose}
      size={960}
      title={t('devices.model.abilitiesTitle', { name: model?.name ?? '' })}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('devices.model.abilitiesHint')}</Typography.Paragraph>
      <QueryResult query={query}>
        <Table<EffectiveAbility>
          rowKey="abilityId"
          size="small"
          loading={query.isFetching}
          dataSource={query.data ?? []}
          pagination={false}
          scroll={{ x: 'max-content' }}
          columns={[
            ...abilityColumns(t),
            {
              title: t('crud.actions'),
              key: 'actions',
              fixed: 'right',
              width: 1,
              render: (_, row) => (
                <Space size={4} wrap={false}>
                  <Button size="small" type="link" icon={<EditOutlined />} onClick={() => setEditing(row)}>
                    {t('devices.model.override')}
                  </Button>
                  {row.overridden && (
                    <Button
                      size="small"
                      type="link"
                      icon={<UndoOutlined />}
                      onClick={() => confirmReset(row)}
                    >
                      {t('devices.model.reset')}
                    </Button>
                  )}
                </Space>
              ),
            },
          ]}
        />
      </QueryResult>
      {model && editing && (
        <OverrideDialog
          key={editing.abilityId}
          modelId={model.id}
          row={editing}
          saving={patch.isPending}
          onSave={(body) => patch.mutateAsync({ abilityId: editing.abilityId, patch: body })}
          onClose={() => setEditing(null)}
        />
      )}
    </Drawer>
  );
}

/** The model's override of one ability; mounted per opening so it starts from that row. */
function OverrideDialog({
  modelId,
  row,
  saving,
  onSave,
  onClose,
}: {
  modelId: number;
  row: EffectiveAbility;
  saving: boolean;
  onSave(patch: ModelAbilityPatch): Promise<unknown>;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<OverrideValues>();

  async function onFinish(values: OverrideValues) {
    const body = overridePatch(modelId, row, values);
    if (Object.keys(body).length === 1) {
      onClose();
      return;
    }
    try {
      await onSave(body);
      notify.success(t('toast.updated'));
      onClose();
    } catch {
      // The http module showed the server's message; the dialog stays open with the input.
    }
  }

  return (
    <Modal
      open
      title={t('devices.model.overrideTitle', { name: row.identifier })}
      width={560}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('common.confirm')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
    >
      <Form<OverrideValues>
        form={form}
        layout="vertical"
        onFinish={onFinish}
        name="model-ability"
        initialValues={{
          name: row.name,
          unit: row.unit,
          aggregator: row.aggregator,
          cumulative: row.cumulative,
          sort: row.sort,
        }}
      >
        <AbilityNameField />
        <Space size="middle" style={{ display: 'flex' }} align="start">
          <Form.Item name="unit" label={t('devices.ability.fields.unit')} style={{ minWidth: 220 }}>
            <UnitSelect />
          </Form.Item>
          <Form.Item
            name="aggregator"
            label={t('devices.ability.fields.aggregator')}
            style={{ minWidth: 160 }}
          >
            <Select options={aggregatorOptions(t)} />
          </Form.Item>
        </Space>
        <Space size="large" style={{ display: 'flex' }} align="start">
          <Form.Item name="cumulative" label={t('devices.ability.fields.cumulative')} valuePropName="checked">
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
