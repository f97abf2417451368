import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  BAND_KINDS,
  type BandSpan,
  DAY_TYPES,
  type DayType,
  DEMAND_WINDOW_MODES,
  minuteOf,
  timeOf,
} from '@kilowatch/contract';
import {
  Alert,
  Button,
  Card,
  DatePicker,
  Form,
  type FormInstance,
  Input,
  InputNumber,
  Radio,
  Select,
  Space,
  Tabs,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { spanProblem, spanProblemText, spanSegments } from '../lib/band-strip.ts';
import type { VersionFormValues } from '../lib/version-form.ts';
import { BandStrip } from './BandStrip.tsx';

const TIME = /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/;
const MONTH_DAY = /^\d{2}-\d{2}$/;

/** The bands of one season and day type: rows of band, from, to, with the strip they draw. */
function SpanList({
  form,
  season,
  dayType,
}: {
  form: FormInstance<VersionFormValues>;
  season: number;
  dayType: DayType;
}) {
  const { t } = useTranslation();
  const spans = (Form.useWatch(['seasons', season, dayType], form) ?? []) as BandSpan[];
  const prices = Form.useWatch('prices', form) ?? {};
  const segments = spanSegments(spans.filter(Boolean), prices);
  // Where the strip cannot be drawn, say why, naming the bands and times (it does not just vanish).
  const problem = segments ? null : spanProblem(spans);
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      {segments && <BandStrip segments={segments} />}
      {problem && (
        <Alert
          type="error"
          showIcon
          data-testid={`span-problem-${season}-${dayType}`}
          title={spanProblemText(problem, t)}
        />
      )}
      <Form.List name={[season, dayType]}>
        {(fields, { add, remove }) => (
          <>
            {fields.map((field) => (
              <Space key={field.key} align="baseline" wrap>
                <Form.Item name={[field.name, 'band']} rules={[{ required: true }]} noStyle>
                  <Select
                    aria-label={t('tariffs.bandLabel')}
                    style={{ width: 110 }}
                    options={BAND_KINDS.map((b) => ({ value: b, label: t(`tariffs.band.${b}`) }))}
                  />
                </Form.Item>
                <Form.Item name={[field.name, 'from']} rules={[{ required: true, pattern: TIME }]} noStyle>
                  <Input aria-label={t('tariffs.from')} placeholder="HH:mm" style={{ width: 90 }} />
                </Form.Item>
                <span>–</span>
                <Form.Item name={[field.name, 'to']} rules={[{ required: true, pattern: TIME }]} noStyle>
                  <Input aria-label={t('tariffs.to')} placeholder="HH:mm" style={{ width: 90 }} />
                </Form.Item>
                <Button
                  type="text"
                  icon={<DeleteOutlined />}
                  aria-label={t('crud.delete')}
                  disabled={fields.length <= 1}
                  onClick={() => remove(field.name)}
                />
              </Space>
            ))}
            <Space>
              <Button
                size="small"
                icon={<PlusOutlined />}
                onClick={() => {
                  const last = spans.at(-1);
                  const from = last && TIME.test(last.to) ? last.to : '00:00';
                  add({ band: 'flat', from, to: timeOf(Math.min(1440, minuteOf(from) + 60)) });
                }}
              >
                {t('tariffs.addSpan')}
              </Button>
              {dayType !== 'workday' && (
                <Button
                  size="small"
                  onClick={() =>
                    form.setFieldValue(
                      ['seasons', season, dayType],
                      structuredClone(form.getFieldValue(['seasons', season, 'workday'])),
                    )
                  }
                >
                  {t('tariffs.copyWorkday')}
                </Button>
              )}
            </Space>
          </>
        )}
      </Form.List>
    </Space>
  );
}

/** The fields of a tariff version: date, prices, basic charge, power-factor standard, seasons and bands. */
export function VersionFields({ form }: { form: FormInstance<VersionFormValues> }) {
  const { t } = useTranslation();
  const demandKind = Form.useWatch('demandKind', form);
  return (
    <>
      <Space wrap size={16}>
        <Form.Item
          name="validFrom"
          label={t('tariffs.validFrom')}
          rules={[{ required: true }]}
          getValueProps={(v: string | undefined) => ({ value: v ? dayjs(v) : null })}
          normalize={(d: dayjs.Dayjs | null) => d?.format('YYYY-MM-DD')}
        >
          <DatePicker aria-label={t('tariffs.validFrom')} />
        </Form.Item>
        <Form.Item name="note" label={t('tariffs.note')}>
          <Input maxLength={200} style={{ width: 320 }} />
        </Form.Item>
      </Space>
      <div>
        <Typography.Text strong>{t('tariffs.prices')}</Typography.Text>
      </div>
      <Space wrap style={{ display: 'flex', margin: '8px 0 16px' }}>
        {BAND_KINDS.map((b) => (
          <Form.Item key={b} name={['prices', b]} label={t(`tariffs.band.${b}`)} style={{ marginBottom: 0 }}>
            <InputNumber min={0} max={1000} step={0.01} style={{ width: 110 }} />
          </Form.Item>
        ))}
      </Space>
      <Space wrap size={16} align="start">
        <Form.Item name="demandKind" label={t('tariffs.demand')}>
          <Radio.Group
            options={(['none', 'demand', 'capacity'] as const).map((k) => ({
              value: k,
              label: t(`tariffs.demandKind.${k}`),
            }))}
          />
        </Form.Item>
        {demandKind === 'demand' && (
          <>
            <Form.Item name="pricePerKw" label={t('tariffs.pricePerKw')} rules={[{ required: true }]}>
              <InputNumber min={0} max={10000} />
            </Form.Item>
            <Form.Item
              name="demandWindow"
              label={t('tariffs.demandWindow')}
              tooltip={t('tariffs.demandWindowHelp')}
              rules={[{ required: true, message: t('tariffs.demandWindowRequired') }]}
            >
              <Radio.Group
                options={DEMAND_WINDOW_MODES.map((mode) => ({
                  value: mode,
                  label: t(`tariffs.demandWindowMode.${mode}`),
                }))}
              />
            </Form.Item>
          </>
        )}
        {demandKind === 'capacity' && (
          <>
            <Form.Item name="pricePerKva" label={t('tariffs.pricePerKva')} rules={[{ required: true }]}>
              <InputNumber min={0} max={10000} />
            </Form.Item>
            <Form.Item name="capacityKva" label={t('tariffs.capacityKva')} rules={[{ required: true }]}>
              <InputNumber min={1} max={10000000} />
            </Form.Item>
          </>
        )}
        <Form.Item name="powerFactorTarget" label={t('tariffs.pfTarget')}>
          <Select
            style={{ width: 140 }}
            options={[
              { value: 0.9, label: '0.90' },
              { value: 0.85, label: '0.85' },
              { value: 0.8, label: '0.80' },
              { value: 'none', label: t('tariffs.pfNone') },
            ]}
          />
        </Form.Item>
      </Space>
      <Form.List name="seasons">
        {(fields, { add, remove }) => (
          <Space orientation="vertical" style={{ width: '100%' }}>
            {fields.map((field) => (
              <Card
                key={field.key}
                size="small"
                title={
                  <Space wrap>
                    <Form.Item name={[field.name, 'name']} rules={[{ required: true }]} noStyle>
                      <Input aria-label={t('tariffs.season')} style={{ width: 140 }} maxLength={32} />
                    </Form.Item>
                    <Form.Item
                      name={[field.name, 'from']}
                      rules={[{ required: true, pattern: MONTH_DAY }]}
                      noStyle
                    >
                      <Input aria-label={t('tariffs.from')} placeholder="MM-DD" style={{ width: 80 }} />
                    </Form.Item>
                    <span>–</span>
                    <Form.Item
                      name={[field.name, 'to']}
                      rules={[{ required: true, pattern: MONTH_DAY }]}
                      noStyle
                    >
                      <Input aria-label={t('tariffs.to')} placeholder="MM-DD" style={{ width: 80 }} />
                    </Form.Item>
                  </Space>
                }
                extra={
                  <Button
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t('crud.delete')}
                    disabled={fields.length <= 1}
                    onClick={() => remove(field.name)}
                  />
                }
              >
                <Tabs
                  size="small"
                  items={DAY_TYPES.map((dayType) => ({
                    key: dayType,
                    label: t(`tariffs.dayType.${dayType}`),
                    // Rendered inside the seasons list: SpanList's path [season, dayType] is under it.
                    children: <SpanList form={form} season={field.name} dayType={dayType} />,
                  }))}
                />
              </Card>
            ))}
            <Button
              icon={<PlusOutlined />}
              onClick={() => {
                const first = form.getFieldValue(['seasons', 0]);
                add({ ...structuredClone(first), name: '', from: '', to: '' });
              }}
            >
              {t('tariffs.addSeason')}
            </Button>
          </Space>
        )}
      </Form.List>
    </>
  );
}
