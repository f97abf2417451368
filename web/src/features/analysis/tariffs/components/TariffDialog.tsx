import { checkVersion, isLocalDate, type Tariff } from '@kilowatch/contract';
import { Alert, App, Checkbox, DatePicker, Form, Input, Modal, Tabs } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCreateTariff, useUpdateTariff } from '../../../../api/tariffs.ts';
import { validValues } from '../../../../lib/form.ts';
import { notify } from '../../../../lib/notify.ts';
import { usePlantCalendar } from '../../../../lib/plant-calendar.ts';
import { issueText } from '../lib/band-strip.ts';
import { blankVersion, type VersionFormValues, versionOfForm } from '../lib/version-form.ts';
import { VersionFields } from './VersionFields.tsx';

interface FieldValues {
  name: string;
  description: string;
  weekendDays: number[];
  holidays: string[];
  workdays: string[];
}

const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7];
/** The form keeps local dates `YYYY-MM-DD` (what the API takes); the picker shows and picks days. */
const asDays = (v: string[] | undefined) => ({ value: (v ?? []).map((d) => dayjs(d)) });
const asDates = (v: Dayjs[] | Dayjs | null | undefined) =>
  [...new Set((Array.isArray(v) ? v : v ? [v] : []).map((d) => d.format('YYYY-MM-DD')))].sort();
const datesRule = {
  validator: (_: unknown, v: string[] | undefined) =>
    (v ?? []).every(isLocalDate) ? Promise.resolve() : Promise.reject(),
};

/**
 * A list of days picked on a calendar, in a group named by its field's label: antd's multiple
 * picker keeps its input hidden and passes neither `id` nor `aria-label` on, so assistive
 * technology met the chosen dates with no name for them.
 */
function DatesField({
  id,
  label,
  testId,
  value,
  onChange,
}: {
  id?: string;
  label: string;
  testId: string;
  value?: Dayjs[];
  onChange?: (days: Dayjs[] | null) => void;
}) {
  const { t } = useTranslation();
  return (
    <fieldset
      id={id}
      aria-label={label}
      data-testid={testId}
      style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}
    >
      <DatePicker
        multiple
        value={value}
        onChange={onChange}
        style={{ width: '100%' }}
        maxTagCount="responsive"
        placeholder={t('tariffs.datesPlaceholder')}
      />
    </fieldset>
  );
}

/**
 * A tariff's name, weekend and day lists; a new one also takes its first version. A change of
 * a past day's type asks first (it recomputes past costs).
 */
export function TariffDialog({ tariff, onClose }: { tariff: Tariff | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const calendar = usePlantCalendar();
  const today = calendar.dateOf(Date.now());
  // A new tariff starts with this month, so its first bill is priced whole.
  const monthStart = `${today.slice(0, 7)}-01`;
  const [form] = Form.useForm<FieldValues>();
  const [versionForm] = Form.useForm<VersionFormValues>();
  const [problem, setProblem] = useState<string | null>(null);
  const create = useCreateTariff();
  const update = useUpdateTariff();

  const submit = async () => {
    const fields = await validValues(form);
    if (!fields) return;
    const body = {
      name: fields.name,
      description: fields.description ?? '',
      weekendDays: fields.weekendDays ?? [],
      holidays: fields.holidays ?? [],
      workdays: fields.workdays ?? [],
    };
    if (!tariff) {
      if (!(await validValues(versionForm))) return;
      const version = versionOfForm(versionForm.getFieldsValue(true) as VersionFormValues);
      const issue = checkVersion(version);
      setProblem(issue ? issueText(issue, t) : null);
      if (issue) return;
      await create
        .mutateAsync({ ...body, version })
        .then(() => {
          notify.success(t('toast.created'));
          onClose();
        })
        .catch(() => undefined);
      return;
    }
    const send = (retroactive: boolean) =>
      update.mutateAsync({ id: tariff.id, body: { ...body, retroactive } }).then((answer) => {
        notify.success(answer.recomputed ? t('tariffs.recomputed', answer.recomputed) : t('toast.updated'));
        onClose();
      });
    const changed = [
      ...body.holidays.filter((d) => !tariff.holidays.includes(d)),
      ...tariff.holidays.filter((d) => !body.holidays.includes(d)),
      ...body.workdays.filter((d) => !tariff.workdays.includes(d)),
      ...tariff.workdays.filter((d) => !body.workdays.includes(d)),
    ]
      .filter((d) => d <= today)
      .sort();
    const weekendChanged = [...body.weekendDays].sort().join() !== [...tariff.weekendDays].sort().join();
    const first = tariff.versions[0]?.validFrom;
    const from = weekendChanged && first && first <= today ? first : changed[0];
    if (from) {
      modal.confirm({
        title: t('tariffs.retroactiveTitle'),
        content: t('tariffs.retroactiveContent', { from }),
        okText: t('common.confirm'),
        cancelText: t('common.cancel'),
        onOk: () => send(true).catch(() => undefined),
      });
    } else {
      await send(false).catch(() => undefined);
    }
  };

  const basics = (
    <Form
      form={form}
      layout="vertical"
      preserve
      initialValues={
        tariff
          ? {
              name: tariff.name,
              description: tariff.description,
              weekendDays: tariff.weekendDays,
              holidays: tariff.holidays,
              workdays: tariff.workdays,
            }
          : { name: '', description: '', weekendDays: [6, 7], holidays: [], workdays: [] }
      }
    >
      <Form.Item
        name="name"
        label={t('tariffs.name')}
        rules={[{ required: true, whitespace: true, max: 64 }]}
      >
        <Input />
      </Form.Item>
      <Form.Item name="description" label={t('tariffs.description')} rules={[{ max: 200 }]}>
        <Input />
      </Form.Item>
      <Form.Item name="weekendDays" label={t('tariffs.weekendDays')}>
        <Checkbox.Group options={WEEKDAYS.map((d) => ({ value: d, label: t(`tariffs.weekday.${d}`) }))} />
      </Form.Item>
      {(['holidays', 'workdays'] as const).map((name) => (
        <Form.Item
          key={name}
          name={name}
          label={t(`tariffs.${name}`)}
          extra={t('tariffs.datesPick')}
          rules={[datesRule]}
          getValueProps={asDays}
          normalize={asDates}
        >
          <DatesField label={t(`tariffs.${name}`)} testId={`tariff-${name}`} />
        </Form.Item>
      ))}
    </Form>
  );

  return (
    <Modal
      open
      width={tariff ? 600 : 900}
      title={tariff ? t('tariffs.editTariff') : t('tariffs.newTariff')}
      okText={t('common.confirm')}
      cancelText={t('common.cancel')}
      confirmLoading={create.isPending || update.isPending}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
    >
      {tariff ? (
        basics
      ) : (
        <Tabs
          items={[
            { key: 'basics', label: t('tariffs.basics'), children: basics, forceRender: true },
            {
              key: 'version',
              label: t('tariffs.firstVersion'),
              forceRender: true,
              children: (
                <Form
                  form={versionForm}
                  layout="vertical"
                  preserve
                  initialValues={blankVersion(monthStart, t('tariffs.wholeYear'))}
                >
                  <VersionFields form={versionForm} />
                </Form>
              ),
            },
          ]}
        />
      )}
      {problem && <Alert type="error" showIcon title={problem} style={{ marginTop: 12 }} />}
    </Modal>
  );
}
