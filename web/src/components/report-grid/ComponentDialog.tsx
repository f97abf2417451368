import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import {
  CHART_TYPES,
  type ChartType,
  type ComponentMetric,
  GROUP_BY_TIMES,
  QUERY_AGGREGATORS,
  REPORT_MAX_METRICS,
  type RegionNode,
  type ReportComponent,
  type ReportComponentInput,
} from '@kilowatch/contract';
import { Button, Col, Form, Input, InputNumber, Modal, Radio, Row, Select, TreeSelect } from 'antd';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useRegionTree } from '../../api/regions.ts';
import { useCategories, useCategoryAbilities, useThingsOfCategory } from '../../api/things.ts';
import { validValues } from '../../lib/form.ts';
import { abilityLabel } from '../charts/metrics.ts';

/** The board's device tiles: a region's devices with their values now, no statistics. */
const TILES = 'devices';

interface FormValues<T extends string> {
  title: string;
  chartType: T;
  target: 'thing' | 'region';
  categoryId: number | undefined;
  thingId: number | undefined;
  regionId: number | undefined;
  metrics: (Omit<ComponentMetric, 'categoryId'> & { groupByTime?: ComponentMetric['groupByTime'] })[];
}

/** What the dialog edits and saves: a report component, or a board page's (whose kinds add `devices`). */
export type DialogComponent<T extends string> = Omit<ReportComponentInput, 'chartType'> & { chartType: T };

export interface ComponentDialogProps<T extends string = ChartType> {
  open: boolean;
  /** The component to change; absent: a new one. */
  component: (DialogComponent<T> & Pick<ReportComponent, 'id'>) | null;
  saving: boolean;
  onCancel: () => void;
  onSave: (input: DialogComponent<T>) => Promise<unknown>;
  /** The kinds offered (default the report's chart types). */
  chartTypes?: readonly T[];
  /** A new component's region (a board page's). */
  defaultRegionId?: number;
}

interface TreeOption {
  value: number;
  title: string;
  children: TreeOption[];
}

/** The region tree as TreeSelect options (regions only, not their things). */
export const regionOptions = (nodes: readonly RegionNode[]): TreeOption[] =>
  nodes
    .filter((n) => n.resourceType === 'region')
    .map((n) => ({ value: n.id, title: n.name, children: regionOptions(n.children) }));

const initialValues = <T extends string>(
  component: DialogComponent<T> | null,
  defaultRegionId: number | undefined,
): Partial<FormValues<T>> =>
  component
    ? {
        title: component.title,
        chartType: component.chartType,
        target: component.params.thingId != null ? 'thing' : 'region',
        categoryId: component.metrics[0]?.categoryId ?? undefined,
        thingId: component.params.thingId ?? undefined,
        regionId: component.params.regionId ?? undefined,
        metrics: component.metrics,
      }
    : {
        chartType: 'line' as T,
        target: defaultRegionId != null ? 'region' : 'thing',
        regionId: defaultRegionId,
        metrics: [{ identifier: '', name: '', statistics: 'avg' }],
      };

/**
 * Adds or changes a report component (spec §3): chart type, a thing or a region, and its metrics
 * picked by category and identifier with statistics, grouping, formula, scale and unit.
 */
export function ComponentDialog<T extends string = ChartType>({
  open,
  component,
  saving,
  onCancel,
  onSave,
  chartTypes = CHART_TYPES as unknown as readonly T[],
  defaultRegionId,
}: ComponentDialogProps<T>) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FormValues<T>>();
  const tiles = Form.useWatch('chartType', form) === TILES;
  const picked = Form.useWatch('target', form);
  const target = tiles ? 'region' : picked;
  const categoryId = Form.useWatch('categoryId', form) ?? null;
  const categories = useCategories(open);
  const abilities = useCategoryAbilities(categoryId);
  const things = useThingsOfCategory(target === 'thing' ? categoryId : null);
  const regions = useRegionTree();

  useEffect(() => {
    if (open) form.setFieldsValue({ ...initialValues(component, defaultRegionId) });
  }, [open, component, form, defaultRegionId]);

  const abilityOptions = useMemo(
    () =>
      (abilities.data ?? [])
        .filter((a) => a.dataType !== 'string')
        .map((a, _, offered) => ({ value: a.identifier, label: abilityLabel(a, a.identifier, offered) })),
    [abilities.data],
  );

  const pickAbility = (index: number, identifier: string) => {
    const ability = abilities.data?.find((a) => a.identifier === identifier);
    if (!ability) return;
    const metrics = [...(form.getFieldValue('metrics') as FormValues<T>['metrics'])];
    metrics[index] = {
      ...metrics[index]!,
      identifier,
      name: ability.name,
      unit: ability.unit,
      statistics: ability.cumulative ? 'delta' : ability.aggregator,
    };
    form.setFieldsValue({ metrics });
  };

  const submit = async () => {
    const v = await validValues(form);
    if (!v) return;
    await onSave({
      title: v.title,
      chartType: v.chartType,
      params:
        v.target === 'thing' && v.chartType !== TILES
          ? { thingId: v.thingId ?? null }
          : { regionId: v.regionId ?? null },
      metrics: (v.metrics ?? []).map((m) => ({
        categoryId: v.categoryId ?? null,
        identifier: m.identifier,
        // Left empty, the series is named as the picker named the ability, not by its identifier.
        name: m.name?.trim() || abilities.data?.find((a) => a.identifier === m.identifier)?.name || '',
        statistics: m.statistics ?? 'last',
        groupByTime: m.groupByTime ?? null,
        groupByInterval: m.groupByInterval ?? null,
        formula: m.formula?.trim() ?? '',
        scale: m.scale ?? null,
        unit: m.unit ?? '',
      })),
    });
  };

  return (
    <Modal
      open={open}
      width={920}
      title={component ? t('reportGrid.component.edit') : t('reportGrid.component.add')}
      onOk={submit}
      onCancel={onCancel}
      confirmLoading={saving}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={initialValues(component, defaultRegionId)}
      >
        <Row gutter={12}>
          <Col span={12}>
            <Form.Item
              name="title"
              label={t('reportGrid.component.title')}
              rules={[{ required: true, whitespace: true, message: t('reportGrid.component.titleRequired') }]}
            >
              <Input maxLength={64} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="chartType"
              label={t('reportGrid.component.chartType')}
              rules={[{ required: true }]}
            >
              <Select
                options={chartTypes.map((c) => ({ value: c, label: t(`reportGrid.chartType.${c}`) }))}
              />
            </Form.Item>
          </Col>
          <Col span={6} hidden={tiles}>
            <Form.Item name="target" label={t('reportGrid.component.target')}>
              <Radio.Group
                optionType="button"
                options={[
                  { value: 'thing', label: t('reportGrid.component.thing') },
                  { value: 'region', label: t('reportGrid.component.region') },
                ]}
              />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item
              name="categoryId"
              label={t('reportGrid.component.category')}
              rules={[{ required: !tiles, message: t('reportGrid.component.categoryRequired') }]}
            >
              <Select
                showSearch
                allowClear={tiles}
                optionFilterProp="label"
                loading={categories.isPending}
                options={(categories.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
                onChange={() => form.setFieldsValue({ thingId: undefined })}
              />
            </Form.Item>
          </Col>
          <Col span={10}>
            {target === 'region' ? (
              <Form.Item
                name="regionId"
                label={t('reportGrid.component.region')}
                rules={[
                  {
                    required: !tiles || defaultRegionId == null,
                    message: t('reportGrid.component.regionRequired'),
                  },
                ]}
              >
                <TreeSelect
                  treeData={regionOptions(regions.data ?? [])}
                  fieldNames={{ label: 'title' }}
                  treeDefaultExpandAll
                  showSearch
                  treeNodeFilterProp="title"
                />
              </Form.Item>
            ) : (
              <Form.Item
                name="thingId"
                label={t('reportGrid.component.thing')}
                rules={[{ required: true, message: t('reportGrid.component.thingRequired') }]}
              >
                <Select
                  showSearch
                  optionFilterProp="label"
                  disabled={categoryId === null}
                  loading={things.isFetching}
                  options={(things.data ?? []).map((th) => ({ value: th.id, label: th.name }))}
                />
              </Form.Item>
            )}
          </Col>
        </Row>
        <Form.List
          name="metrics"
          rules={[
            {
              validator: async (_, list: unknown[] | undefined) => {
                if (!tiles && !list?.length) throw new Error(t('reportGrid.component.metricsRequired'));
              },
            },
          ]}
        >
          {(fields, { add, remove }, { errors }) => (
            <>
              {fields.map((field, index) => (
                <Row gutter={8} key={field.key} align="top" data-testid={`kpi-metric-${index}`}>
                  <Col span={5}>
                    <Form.Item
                      name={[field.name, 'identifier']}
                      label={index === 0 ? t('reportGrid.metric.identifier') : undefined}
                      rules={[{ required: true, message: t('reportGrid.metric.identifierRequired') }]}
                    >
                      <Select
                        showSearch
                        optionFilterProp="label"
                        disabled={categoryId === null}
                        options={abilityOptions}
                        onChange={(v: string) => pickAbility(index, v)}
                        aria-label={t('reportGrid.metric.identifier')}
                      />
                    </Form.Item>
                  </Col>
                  <Col span={3}>
                    <Form.Item
                      name={[field.name, 'name']}
                      label={index === 0 ? t('reportGrid.metric.name') : undefined}
                    >
                      <Input maxLength={64} />
                    </Form.Item>
                  </Col>
                  <Col span={3} hidden={tiles}>
                    <Form.Item
                      name={[field.name, 'statistics']}
                      label={index === 0 ? t('reportGrid.metric.statistics') : undefined}
                      rules={[{ required: true }]}
                    >
                      <Select
                        options={QUERY_AGGREGATORS.map((a) => ({
                          value: a,
                          label: t(`reportGrid.statistics.${a}`),
                        }))}
                      />
                    </Form.Item>
                  </Col>
                  <Col span={3} hidden={tiles}>
                    <Form.Item
                      name={[field.name, 'groupByTime']}
                      label={index === 0 ? t('reportGrid.metric.groupByTime') : undefined}
                    >
                      <Select
                        allowClear
                        placeholder={t('reportGrid.metric.byPeriod')}
                        options={GROUP_BY_TIMES.map((g) => ({
                          value: g,
                          label: t(`reportGrid.groupBy.${g}`),
                        }))}
                      />
                    </Form.Item>
                  </Col>
                  <Col span={2} hidden={tiles}>
                    <Form.Item
                      name={[field.name, 'groupByInterval']}
                      label={index === 0 ? t('reportGrid.metric.groupByInterval') : undefined}
                    >
                      <InputNumber
                        min={1}
                        max={1000}
                        precision={0}
                        placeholder="1"
                        style={{ width: '100%' }}
                      />
                    </Form.Item>
                  </Col>
                  <Col span={3} hidden={tiles}>
                    <Form.Item
                      name={[field.name, 'formula']}
                      label={index === 0 ? t('reportGrid.metric.formula') : undefined}
                      tooltip={index === 0 ? t('reportGrid.metric.formulaHelp') : undefined}
                      rules={[
                        { pattern: /^[\sxX0-9.eE+\-*/()]*$/, message: t('reportGrid.metric.formulaChars') },
                      ]}
                    >
                      <Input placeholder="x / 1000" maxLength={200} />
                    </Form.Item>
                  </Col>
                  <Col span={2} hidden={tiles}>
                    <Form.Item
                      name={[field.name, 'scale']}
                      label={index === 0 ? t('reportGrid.metric.scale') : undefined}
                    >
                      <InputNumber min={0} max={10} precision={0} placeholder="2" style={{ width: '100%' }} />
                    </Form.Item>
                  </Col>
                  <Col span={2}>
                    <Form.Item
                      name={[field.name, 'unit']}
                      label={index === 0 ? t('reportGrid.metric.unit') : undefined}
                    >
                      <Input maxLength={32} />
                    </Form.Item>
                  </Col>
                  <Col span={1} style={{ paddingTop: index === 0 ? 30 : 4 }}>
                    {(fields.length > 1 || tiles) && (
                      <MinusCircleOutlined
                        aria-label={t('reportGrid.metric.remove')}
                        onClick={() => remove(field.name)}
                      />
                    )}
                  </Col>
                </Row>
              ))}
              <Form.ErrorList errors={errors} />
              {fields.length < REPORT_MAX_METRICS && (
                <Button
                  type="dashed"
                  icon={<PlusOutlined />}
                  onClick={() => add({ identifier: undefined, name: '', statistics: 'avg' })}
                >
                  {t('reportGrid.metric.add')}
                </Button>
              )}
            </>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}
