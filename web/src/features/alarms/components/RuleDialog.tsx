import { type AlarmRule, COMPARISONS, SEVERITIES } from '@kilowatch/contract';
import { Collapse, Form, Input, InputNumber, Modal, Radio, Select, Space } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useAlarmTemplates, useSaveAlarmRule } from '../../../api/alarms.ts';
import { useCategoryAbilities, useCategoryOptions } from '../../../api/things.ts';
import { validValues } from '../../../lib/form.ts';
import { notify } from '../../../lib/notify.ts';
import {
  CONDITION_KINDS,
  EMPTY_RULE,
  formOf,
  inputOf,
  NUMERIC_KINDS,
  type RuleFormValues,
} from '../lib/rule-form.ts';
import { BacktestPanel } from './BacktestPanel.tsx';

/** Durations are whole seconds up to a week (the contract's limit). */
const MAX_SECONDS = 604_800;

/**
 * Create or edit a rule: what it watches (category, ability, optional template), the condition
 * of its kind, on/off delays and deadband, severity and message; the backtest runs the rule as
 * it stands in the dialog, saved or not.
 */
export function RuleDialog({
  open,
  rule,
  onClose,
  onCreated,
}: {
  open: boolean;
  /** The rule to edit; null to create one. */
  rule: AlarmRule | null;
  onClose: () => void;
  /** A new rule was saved (disabled, watching nothing): the caller guides the next steps. */
  onCreated?: (rule: AlarmRule) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<RuleFormValues>();
  const save = useSaveAlarmRule();
  const categories = useCategoryOptions();
  const categoryId = Form.useWatch('categoryId', form) ?? null;
  const kind = Form.useWatch('kind', form) ?? 'threshold';
  const abilities = useCategoryAbilities(categoryId);
  const templates = useAlarmTemplates({ page: 1, pageSize: 1000 });

  // The dialog mounts its form on each opening (no forceRender: with it antd ignores
  // destroyOnHidden and keeps a closed dialog and its motion state mounted from one opening to the
  // next); the form store outlives the form, so each opening starts from reset values.
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(rule ? formOf(rule) : EMPTY_RULE);
  }, [open, rule, form]);

  const numericAbilities = NUMERIC_KINDS.has(kind);
  const abilityOptions = (abilities.data ?? [])
    .filter((a) => !numericAbilities || a.dataType === 'number')
    .map((a) => ({ value: a.identifier, label: `${a.name} (${a.identifier})` }));
  const templateOptions = (templates.data?.list ?? [])
    .filter((tpl) => tpl.categoryId === categoryId)
    .map((tpl) => ({ value: tpl.id, label: tpl.name }));
  const opOptions = COMPARISONS.map((op) => ({ value: op, label: op === '!=' ? '≠' : op }));
  const seconds = (label: string, name: keyof RuleFormValues, min: number) => (
    <Form.Item
      name={name}
      label={label}
      rules={[{ required: true, message: t('alarms.rule.required') }]}
      extra={t('alarms.rule.secondsHint')}
    >
      <InputNumber min={min} max={MAX_SECONDS} precision={0} style={{ width: 160 }} addonAfter="s" />
    </Form.Item>
  );
  const required = [{ required: true, message: t('alarms.rule.required') }];

  // Every field, also those of other condition kinds that are not shown (their defaults).
  const allValues = (): RuleFormValues => ({ ...EMPTY_RULE, ...form.getFieldsValue(true) });

  async function validate() {
    return (await validValues(form)) ? inputOf(allValues()) : null;
  }

  return (
    <Modal
      open={open}
      width={880}
      title={t(rule ? 'alarms.rule.editTitle' : 'alarms.rule.createTitle')}
      okText={t('common.confirm')}
      cancelText={t('common.cancel')}
      confirmLoading={save.isPending}
      onCancel={onClose}
      onOk={() => form.submit()}
      destroyOnHidden
    >
      <Form<RuleFormValues>
        form={form}
        layout="vertical"
        initialValues={EMPTY_RULE}
        onFinish={() =>
          save.mutate(
            { id: rule?.id ?? null, input: inputOf(allValues()) },
            {
              onSuccess: (saved) => {
                notify.success(t(rule ? 'toast.updated' : 'toast.created'));
                onClose();
                if (!rule) onCreated?.(saved);
              },
            },
          )
        }
        data-testid="rule-form"
      >
        <Space wrap align="start" size={16}>
          <Form.Item
            name="name"
            label={t('alarms.rule.name')}
            rules={[
              ...required,
              { max: 64, message: t('alarms.rule.nameMax') },
              { whitespace: true, message: t('alarms.rule.required') },
            ]}
          >
            <Input style={{ width: 240 }} />
          </Form.Item>
          <Form.Item name="severity" label={t('alarms.history.severity')} rules={required}>
            <Select
              style={{ width: 140 }}
              options={SEVERITIES.map((s) => ({ value: s, label: t(`alarms.severity.${s}`) }))}
            />
          </Form.Item>
        </Space>
        <Space wrap align="start" size={16}>
          <Form.Item name="categoryId" label={t('alarms.rule.category')} rules={required}>
            <Select
              style={{ width: 200 }}
              showSearch={{ optionFilterProp: 'label' }}
              loading={categories.isFetching}
              options={(categories.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
              onChange={() => form.setFieldsValue({ ability: undefined, templateId: null })}
              data-testid="rule-category"
            />
          </Form.Item>
          <Form.Item name="ability" label={t('alarms.rule.ability')} rules={required}>
            <Select
              style={{ width: 240 }}
              showSearch={{ optionFilterProp: 'label' }}
              disabled={categoryId === null}
              loading={abilities.isFetching}
              options={abilityOptions}
              data-testid="rule-ability"
            />
          </Form.Item>
          <Form.Item name="templateId" label={t('alarms.rule.template')}>
            <Select
              allowClear
              style={{ width: 200 }}
              placeholder={t('alarms.rule.noTemplate')}
              options={templateOptions}
              disabled={categoryId === null}
            />
          </Form.Item>
        </Space>

        <Form.Item name="kind" label={t('alarms.rule.condition')}>
          <Radio.Group
            optionType="button"
            options={CONDITION_KINDS.map((k) => ({ value: k, label: t(`alarms.kind.${k}`) }))}
          />
        </Form.Item>
        <Space wrap align="start" size={16} data-testid="rule-condition">
          {(kind === 'threshold' || kind === 'rate') && (
            <>
              <Form.Item name="op" label={t('alarms.rule.op')} rules={required}>
                <Select style={{ width: 90 }} options={opOptions} aria-label={t('alarms.rule.op')} />
              </Form.Item>
              <Form.Item
                name="value"
                label={t(kind === 'rate' ? 'alarms.rule.rateValue' : 'alarms.rule.value')}
                rules={required}
              >
                <InputNumber style={{ width: 160 }} data-testid="rule-value" />
              </Form.Item>
              {kind === 'rate' && seconds(t('alarms.rule.window'), 'seconds', 1)}
            </>
          )}
          {kind === 'range' && (
            <>
              <Form.Item name="inside" label={t('alarms.rule.when')}>
                <Radio.Group
                  options={[
                    { value: false, label: t('alarms.rule.outside') },
                    { value: true, label: t('alarms.rule.inside') },
                  ]}
                />
              </Form.Item>
              <Form.Item name="low" label={t('alarms.rule.low')} rules={required}>
                <InputNumber style={{ width: 140 }} data-testid="rule-low" />
              </Form.Item>
              <Form.Item
                name="high"
                label={t('alarms.rule.high')}
                dependencies={['low']}
                rules={[
                  ...required,
                  ({ getFieldValue }) => ({
                    validator: (_, high: number | null) => {
                      const low = getFieldValue('low') as number | null;
                      return high === null ||
                        high === undefined ||
                        low === null ||
                        low === undefined ||
                        low < high
                        ? Promise.resolve()
                        : Promise.reject(new Error(t('alarms.rule.rangeOrder')));
                    },
                  }),
                ]}
              >
                <InputNumber style={{ width: 140 }} data-testid="rule-high" />
              </Form.Item>
            </>
          )}
          {kind === 'noData' && seconds(t('alarms.rule.noDataSeconds'), 'seconds', 1)}
          {kind === 'state' && (
            <Form.Item
              name="values"
              label={t('alarms.rule.stateValues')}
              rules={[
                {
                  required: true,
                  validator: (_, values: string[] | undefined) =>
                    values?.some((v) => v.trim())
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('alarms.rule.stateValuesRequired'))),
                },
              ]}
              extra={t('alarms.rule.stateValuesHint')}
            >
              <Select
                mode="tags"
                style={{ width: 360 }}
                open={false}
                aria-label={t('alarms.rule.stateValues')}
              />
            </Form.Item>
          )}
        </Space>

        <Space wrap align="start" size={16}>
          {seconds(t('alarms.rule.onDelay'), 'onDelay', 0)}
          {seconds(t('alarms.rule.offDelay'), 'offDelay', 0)}
          {NUMERIC_KINDS.has(kind) && (
            <Form.Item
              name="deadband"
              label={t('alarms.rule.deadband')}
              rules={required}
              extra={t('alarms.rule.deadbandHint')}
            >
              <InputNumber min={0} style={{ width: 140 }} />
            </Form.Item>
          )}
        </Space>
        <Form.Item
          name="message"
          label={t('alarms.rule.message')}
          extra={t('alarms.rule.messageHint')}
          rules={[{ max: 200, message: t('alarms.rule.messageMax') }]}
        >
          <Input maxLength={200} />
        </Form.Item>
      </Form>
      <Collapse
        size="small"
        items={[
          {
            key: 'backtest',
            label: t('alarms.backtest.title'),
            children: <BacktestPanel categoryId={categoryId} validate={validate} />,
          },
        ]}
      />
    </Modal>
  );
}
