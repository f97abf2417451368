import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { ERP_FIELDS } from '@kilowatch/contract';
import { Button, Card, Col, Form, Input, InputNumber, Row, Select, Space, Spin, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useErpConfig, useSaveErpConfig } from '../../../api/system.ts';
import { useTariffs } from '../../../api/tariffs.ts';
import { notify } from '../../../lib/notify.ts';
import {
  type ErpFormValues,
  fromErpForm,
  repeatedIdentifiers,
  SHEET_NAME_FORBIDDEN,
  toErpForm,
} from '../lib/erp-form.ts';

const MAX_COLUMNS = 30;

/** Per-thing rows (ERP codes, other tariffs): a thing's identifier once, then its value. */
function ThingRows({
  name,
  label,
  addLabel,
  value,
}: {
  name: 'codes' | 'tariffs';
  label: string;
  addLabel: string;
  value: (field: number) => React.ReactNode;
}) {
  const { t } = useTranslation();
  const form = Form.useFormInstance<ErpFormValues>();
  const identifierLabel = t('system.erp.thing');
  return (
    <Form.Item label={label}>
      <Form.List name={name}>
        {(fields, { add, remove }) => (
          <Space orientation="vertical" style={{ width: '100%' }}>
            {fields.map((field) => (
              <Space key={field.key} align="start" wrap>
                <Form.Item
                  name={[field.name, 'identifier']}
                  noStyle={false}
                  style={{ marginBottom: 0 }}
                  rules={[
                    {
                      required: true,
                      whitespace: true,
                      message: t('system.common.required', { field: identifierLabel }),
                    },
                    { max: 64, message: t('system.common.maxLength', { field: identifierLabel, max: 64 }) },
                    {
                      validator: () =>
                        repeatedIdentifiers(form.getFieldValue(name) ?? []).has(field.name)
                          ? Promise.reject(new Error(t('system.erp.repeated')))
                          : Promise.resolve(),
                    },
                  ]}
                >
                  <Input placeholder={identifierLabel} aria-label={identifierLabel} style={{ width: 180 }} />
                </Form.Item>
                {value(field.name)}
                <Button
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('crud.delete')}
                  onClick={() => remove(field.name)}
                />
              </Space>
            ))}
            <Button icon={<PlusOutlined />} onClick={() => add()}>
              {addLabel}
            </Button>
          </Space>
        )}
      </Form.List>
    </Form.Item>
  );
}

/**
 * The ERP export's layout (erpConfig) as a form: sheet, currency, flat price, the plant's tariff,
 * the columns in order with their headers, the ERP code of each thing and the things priced by
 * another tariff (docs/statistics.md#erp). Saved whole through PUT /api/sysconfigs/erp.
 */
export function ErpConfigForm() {
  const { t } = useTranslation();
  const config = useErpConfig();
  const tariffs = useTariffs();
  const save = useSaveErpConfig();
  const [form] = Form.useForm<ErpFormValues>();

  useEffect(() => {
    if (config.data) form.setFieldsValue(toErpForm(config.data));
  }, [config.data, form]);

  const tariffOptions = (tariffs.data ?? []).map((x) => ({ value: x.id, label: x.name }));
  const fieldOptions = ERP_FIELDS.map((f) => ({ value: f, label: t(`system.erp.field.${f}`) }));
  const sheetLabel = t('system.erp.sheetName');
  const currencyLabel = t('system.erp.currency');
  const priceLabel = t('system.erp.price');
  const headerLabel = t('system.erp.header');

  return (
    <Card title={t('system.erp.title')} data-testid="erp-form">
      <Typography.Paragraph type="secondary">{t('system.erp.intro')}</Typography.Paragraph>
      {config.isLoading ? (
        <Spin />
      ) : (
        <Form<ErpFormValues>
          form={form}
          layout="vertical"
          style={{ maxWidth: 880 }}
          onFinish={(values) =>
            save.mutate(fromErpForm(values), { onSuccess: () => notify.success(t('toast.updated')) })
          }
        >
          <Row gutter={16}>
            <Col xs={24} md={8}>
              <Form.Item
                name="sheetName"
                label={sheetLabel}
                rules={[
                  {
                    required: true,
                    whitespace: true,
                    message: t('system.common.required', { field: sheetLabel }),
                  },
                  { max: 31, message: t('system.common.maxLength', { field: sheetLabel, max: 31 }) },
                  {
                    validator: (_, v: string | undefined) =>
                      v && SHEET_NAME_FORBIDDEN.test(v)
                        ? Promise.reject(new Error(t('system.erp.sheetChars')))
                        : Promise.resolve(),
                  },
                ]}
              >
                <Input />
              </Form.Item>
            </Col>
            <Col xs={12} md={4}>
              <Form.Item
                name="currency"
                label={currencyLabel}
                rules={[{ max: 8, message: t('system.common.maxLength', { field: currencyLabel, max: 8 }) }]}
              >
                <Input />
              </Form.Item>
            </Col>
            <Col xs={12} md={4}>
              <Form.Item
                name="price"
                label={priceLabel}
                tooltip={t('system.erp.priceHint')}
                rules={[{ required: true, message: t('system.common.required', { field: priceLabel }) }]}
              >
                <InputNumber min={0} max={1e9} step={0.01} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="tariffId" label={t('system.erp.tariff')} tooltip={t('system.erp.tariffHint')}>
                <Select
                  allowClear
                  options={tariffOptions}
                  loading={tariffs.isLoading}
                  placeholder={t('system.erp.noTariff')}
                  aria-label={t('system.erp.tariff')}
                />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item label={t('system.erp.columns')} required>
            <Form.List
              name="columns"
              rules={[
                {
                  validator: (_, rows: unknown[] | undefined) =>
                    rows && rows.length > 0
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('system.erp.noColumns'))),
                },
              ]}
            >
              {(fields, { add, remove, move }, { errors }) => (
                <Space orientation="vertical" style={{ width: '100%' }}>
                  {fields.map((field, i) => (
                    <Space key={field.key} align="start" wrap data-testid="erp-column">
                      <Form.Item name={[field.name, 'field']} style={{ marginBottom: 0 }}>
                        <Select
                          options={fieldOptions}
                          style={{ width: 160 }}
                          aria-label={t('system.erp.field.label')}
                        />
                      </Form.Item>
                      <Form.Item
                        name={[field.name, 'header']}
                        style={{ marginBottom: 0 }}
                        rules={[
                          {
                            required: true,
                            whitespace: true,
                            message: t('system.common.required', { field: headerLabel }),
                          },
                          { max: 64, message: t('system.common.maxLength', { field: headerLabel, max: 64 }) },
                        ]}
                      >
                        <Input placeholder={headerLabel} aria-label={headerLabel} style={{ width: 200 }} />
                      </Form.Item>
                      <Button
                        type="text"
                        icon={<ArrowUpOutlined />}
                        aria-label={t('system.erp.up')}
                        disabled={i === 0}
                        onClick={() => move(i, i - 1)}
                      />
                      <Button
                        type="text"
                        icon={<ArrowDownOutlined />}
                        aria-label={t('system.erp.down')}
                        disabled={i === fields.length - 1}
                        onClick={() => move(i, i + 1)}
                      />
                      <Button
                        type="text"
                        danger
                        icon={<DeleteOutlined />}
                        aria-label={t('crud.delete')}
                        onClick={() => remove(field.name)}
                      />
                    </Space>
                  ))}
                  <Button
                    icon={<PlusOutlined />}
                    disabled={fields.length >= MAX_COLUMNS}
                    onClick={() => add({ field: 'consumption', header: '' })}
                  >
                    {t('system.erp.addColumn')}
                  </Button>
                  <Form.ErrorList errors={errors} />
                </Space>
              )}
            </Form.List>
          </Form.Item>
          <ThingRows
            name="codes"
            label={t('system.erp.codes')}
            addLabel={t('system.erp.addCode')}
            value={(name) => (
              <Form.Item
                name={[name, 'code']}
                style={{ marginBottom: 0 }}
                rules={[
                  {
                    required: true,
                    whitespace: true,
                    message: t('system.common.required', { field: t('system.erp.code') }),
                  },
                  {
                    max: 64,
                    message: t('system.common.maxLength', { field: t('system.erp.code'), max: 64 }),
                  },
                ]}
              >
                <Input
                  placeholder={t('system.erp.code')}
                  aria-label={t('system.erp.code')}
                  style={{ width: 180 }}
                />
              </Form.Item>
            )}
          />
          <ThingRows
            name="tariffs"
            label={t('system.erp.thingTariffs')}
            addLabel={t('system.erp.addThingTariff')}
            value={(name) => (
              <Form.Item
                name={[name, 'tariffId']}
                style={{ marginBottom: 0 }}
                rules={[
                  {
                    required: true,
                    message: t('system.common.requiredSelect', { field: t('system.erp.tariff') }),
                  },
                ]}
              >
                <Select
                  options={tariffOptions}
                  style={{ width: 200 }}
                  placeholder={t('system.erp.tariff')}
                  aria-label={t('system.erp.tariff')}
                />
              </Form.Item>
            )}
          />
          <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="erp-save">
            {t('system.logo.save')}
          </Button>
        </Form>
      )}
    </Card>
  );
}
