import { ENPI_PERIODS, ENPI_VARIABLES, type Enpi } from '@kilowatch/contract';
import {
  Checkbox,
  DatePicker,
  Form,
  Input,
  InputNumber,
  Modal,
  Radio,
  Select,
  Space,
  TreeSelect,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useEnpiAbilities, useSaveEnpi } from '../../../../api/enpi.ts';
import { abilityLabel } from '../../../../components/charts/index.ts';
import { validValues } from '../../../../lib/form.ts';
import { notify } from '../../../../lib/notify.ts';
import { usePlantCalendar } from '../../../../lib/plant-calendar.ts';
import {
  blankValues,
  type EnpiFormValues,
  inputOf,
  isThingTarget,
  sourceOf,
  valuesOf,
  variableProblem,
} from '../lib/form.ts';
import type { TargetOption } from '../lib/targets.ts';

const IDENTIFIER = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * The metric of a chosen source, picked from its abilities by name and unit (the same name its
 * charts and the report use), not typed as an identifier. A metric the source lacks (one kept from
 * the source chosen before, or an ability its devices no longer have) is cleared once the source's
 * abilities are in, and a line says which one went, so the select never shows a bare identifier.
 */
function MetricSelect({
  target,
  label,
  testId,
  value,
  onChange,
  allowClear,
}: {
  target: string | undefined;
  label: string;
  testId: string;
  value?: string;
  onChange?: (v: string | undefined) => void;
  allowClear?: boolean;
}) {
  const { t } = useTranslation();
  const source = target ? sourceOf(target, '') : null;
  const abilities = useEnpiAbilities(
    source ? { resourceType: source.resourceType, resourceId: source.resourceId } : null,
  );
  const lacking =
    target && value && abilities.data && !abilities.data.some((a) => a.identifier === value) ? value : null;
  const [dropped, setDropped] = useState<{ target: string; metric: string } | null>(null);
  useEffect(() => {
    if (!lacking || !target) return;
    setDropped({ target, metric: lacking });
    onChange?.('');
  }, [lacking, target, onChange]);
  const select = (
    <Select
      aria-label={label}
      data-testid={testId}
      value={(target && value) || undefined}
      onChange={(v: string | undefined) => onChange?.(v ?? '')}
      allowClear={allowClear}
      disabled={!target}
      loading={abilities.isFetching}
      showSearch
      optionFilterProp="label"
      placeholder={target ? t('enpi.metricPlaceholder') : t('enpi.metricFirstSource')}
      notFoundContent={t('enpi.noAbilities')}
      options={(abilities.data ?? []).map((a, _, offered) => ({
        value: a.identifier,
        label: abilityLabel(a, a.identifier, offered),
      }))}
    />
  );
  if (!dropped || dropped.target !== target || value) return select;
  return (
    <>
      {select}
      <Typography.Text type="warning" data-testid={`${testId}-dropped`}>
        {t('enpi.metricDropped', { metric: dropped.metric })}
      </Typography.Text>
    </>
  );
}

/** Defines or changes an EnPI: sources, period, baseline, regression variables (docs/enpi.md). */
export function EnpiDialog({
  enpi,
  targets,
  onClose,
}: {
  enpi: Enpi | null;
  targets: TargetOption[];
  onClose: (saved?: Enpi) => void;
}) {
  const { t } = useTranslation();
  const calendar = usePlantCalendar();
  const [form] = Form.useForm<EnpiFormValues>();
  const save = useSaveEnpi();
  const outputKind = Form.useWatch('outputKind', form);
  const energyTarget = Form.useWatch('energyTarget', form);
  const outputTarget = Form.useWatch('outputTarget', form);
  const temperatureTarget = Form.useWatch('temperatureTarget', form);

  const submit = async () => {
    const values = await validValues(form);
    if (!values) return;
    const body = inputOf({ ...form.getFieldsValue(true), ...values });
    await save
      .mutateAsync({ id: enpi?.id ?? null, body })
      .then((saved) => {
        notify.success(t(enpi ? 'toast.updated' : 'toast.created'));
        onClose(saved);
      })
      .catch(() => undefined);
  };

  const metricRules = [
    { required: true, whitespace: true, message: t('enpi.required.metric') },
    { pattern: IDENTIFIER, message: t('enpi.required.metric') },
  ];
  const tree = (label: string, testId: string) => (
    <TreeSelect
      aria-label={label}
      data-testid={testId}
      placeholder={t('enpi.targetPlaceholder')}
      treeData={targets}
      treeDefaultExpandAll
      showSearch
      treeNodeFilterProp="title"
    />
  );

  return (
    <Modal
      open
      width={640}
      title={enpi ? t('crud.editTitle') : t('enpi.create')}
      okText={t('common.confirm')}
      cancelText={t('common.cancel')}
      confirmLoading={save.isPending}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={() => onClose()}
      destroyOnHidden
    >
      <Form<EnpiFormValues>
        form={form}
        layout="vertical"
        preserve
        initialValues={enpi ? valuesOf(enpi) : blankValues(calendar.dateOf(Date.now()))}
      >
        <Form.Item
          name="name"
          label={t('enpi.name')}
          rules={[{ required: true, whitespace: true, max: 64, message: t('enpi.required.name') }]}
        >
          <Input />
        </Form.Item>
        <Form.Item name="description" label={t('enpi.description')} rules={[{ max: 200 }]}>
          <Input />
        </Form.Item>
        <Space.Compact block>
          <Form.Item
            name="energyTarget"
            label={t('enpi.energy')}
            style={{ flex: 2 }}
            rules={[{ required: true, message: t('enpi.required.energy') }]}
          >
            {tree(t('enpi.energy'), 'enpi-energy')}
          </Form.Item>
          <Form.Item
            name="energyMetric"
            label={t('enpi.energyMetric')}
            style={{ flex: 1 }}
            rules={metricRules}
          >
            <MetricSelect target={energyTarget} label={t('enpi.energyMetric')} testId="enpi-energy-metric" />
          </Form.Item>
        </Space.Compact>
        <Form.Item name="outputKind" label={t('enpi.outputKind')}>
          <Radio.Group
            options={[
              { value: 'entered', label: t('enpi.outputEnteredKind') },
              { value: 'metric', label: t('enpi.outputMetricKind') },
            ]}
          />
        </Form.Item>
        {outputKind === 'metric' && (
          <Space.Compact block>
            <Form.Item
              name="outputTarget"
              label={t('enpi.output')}
              style={{ flex: 2 }}
              rules={[{ required: true, message: t('enpi.required.output') }]}
            >
              {tree(t('enpi.output'), 'enpi-output')}
            </Form.Item>
            <Form.Item
              name="outputMetric"
              label={t('enpi.outputMetric')}
              style={{ flex: 1 }}
              rules={metricRules}
            >
              <MetricSelect
                target={outputTarget}
                label={t('enpi.outputMetric')}
                testId="enpi-output-metric"
              />
            </Form.Item>
          </Space.Compact>
        )}
        <Form.Item name="outputUnit" label={t('enpi.outputUnit')} rules={[{ max: 16 }]}>
          <Input style={{ width: 160 }} />
        </Form.Item>
        <Space.Compact block>
          <Form.Item
            name="temperatureTarget"
            label={t('enpi.temperature')}
            style={{ flex: 2 }}
            rules={[
              {
                validator: (_, v: string | undefined) =>
                  !v || isThingTarget(v)
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('enpi.required.thing'))),
              },
            ]}
          >
            <TreeSelect
              aria-label={t('enpi.temperature')}
              allowClear
              placeholder={t('enpi.targetPlaceholder')}
              treeData={targets}
              treeDefaultExpandAll
              showSearch
              treeNodeFilterProp="title"
            />
          </Form.Item>
          <Form.Item
            name="temperatureMetric"
            label={t('enpi.temperatureMetric')}
            style={{ flex: 1 }}
            rules={[{ pattern: IDENTIFIER, message: t('enpi.required.metric') }]}
          >
            <MetricSelect
              target={temperatureTarget}
              label={t('enpi.temperatureMetric')}
              testId="enpi-temperature-metric"
              allowClear
            />
          </Form.Item>
        </Space.Compact>
        <Space size={16}>
          <Form.Item name="heatingBase" label={t('enpi.heatingBase')}>
            <InputNumber min={-50} max={60} step={0.5} />
          </Form.Item>
          <Form.Item name="coolingBase" label={t('enpi.coolingBase')}>
            <InputNumber min={-50} max={60} step={0.5} />
          </Form.Item>
          <Form.Item name="period" label={t('enpi.period')}>
            <Select
              aria-label={t('enpi.period')}
              style={{ width: 120 }}
              options={ENPI_PERIODS.map((p) => ({ value: p, label: t(`enpi.periods.${p}`) }))}
            />
          </Form.Item>
        </Space>
        <Form.Item
          name="baseline"
          label={t('enpi.baseline')}
          rules={[{ required: true, message: t('enpi.required.baseline') }]}
          getValueProps={(v: [string, string] | undefined) => ({ value: v && [dayjs(v[0]), dayjs(v[1])] })}
          normalize={(v: [dayjs.Dayjs, dayjs.Dayjs] | null) =>
            v ? [v[0].format('YYYY-MM-DD'), v[1].format('YYYY-MM-DD')] : undefined
          }
        >
          <DatePicker.RangePicker aria-label={t('enpi.baseline')} allowClear={false} />
        </Form.Item>
        <Form.Item
          name="variables"
          label={t('enpi.variables')}
          dependencies={['temperatureTarget', 'temperatureMetric', 'heatingBase', 'coolingBase']}
          rules={[
            {
              validator: () => {
                const problem = variableProblem(form.getFieldsValue(true));
                return problem ? Promise.reject(new Error(t(problem))) : Promise.resolve();
              },
            },
          ]}
        >
          <Checkbox.Group
            options={ENPI_VARIABLES.map((v) => ({ value: v, label: t(`enpi.variable.${v}`) }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
