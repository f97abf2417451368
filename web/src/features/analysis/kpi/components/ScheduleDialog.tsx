import { DeleteOutlined, EditOutlined, PlusOutlined, SendOutlined } from '@ant-design/icons';
import {
  EMAIL_PATTERN,
  LANGUAGES,
  type Language,
  type ReportNode,
  type ReportSchedule,
  type ReportScheduleInput,
  type ReportScheduleRun,
  SCHEDULE_FREQUENCIES,
  SCHEDULE_MAX_RECIPIENTS,
  SCHEDULE_TIME_PATTERN,
  type ScheduleFrequency,
} from '@kilowatch/contract';
import {
  Alert,
  App,
  Button,
  Empty,
  Form,
  Input,
  InputNumber,
  Modal,
  Segmented,
  Select,
  Space,
  Switch,
  Table,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import type { TFunction } from 'i18next';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useCreateSchedule,
  useDeleteSchedule,
  useReportSchedules,
  useScheduleRuns,
  useSendSchedule,
  useUpdateSchedule,
} from '../../../../api/report-schedules.ts';
import { useConfirmDelete } from '../../../../components/crud/confirm-delete.tsx';
import { validValues } from '../../../../lib/form.ts';
import { formatPlantTime, usePlantCalendar } from '../../../../lib/plant-calendar.ts';

const EMAIL = new RegExp(EMAIL_PATTERN);
const TIME = new RegExp(SCHEDULE_TIME_PATTERN);
const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
const RUN_COLOR = { running: 'processing', sent: 'success', failed: 'error' } as const;

/** "Daily at 07:00", "Every Monday at 07:00", "Monthly on day 31 at 07:00". */
const scheduleWhen = (t: TFunction, s: Pick<ReportSchedule, 'frequency' | 'weekday' | 'monthDay' | 'time'>) =>
  t(`kpi.schedule.every.${s.frequency}`, {
    time: s.time,
    weekday: t(`kpi.schedule.days.${s.weekday}`),
    day: s.monthDay,
  });

/** A run's status, with why it failed on hover and beside it. */
function RunStatus({ run }: { run: ReportScheduleRun }) {
  const { t } = useTranslation();
  const why = run.errorCode ? t(`kpi.schedule.error.${run.errorCode}`) : '';
  return (
    <Space size={4} wrap>
      <Tag color={RUN_COLOR[run.status]} data-testid="schedule-run-status">
        {t(`kpi.schedule.runStatus.${run.status}`)}
      </Tag>
      {why && (
        <Tooltip title={run.error || undefined}>
          <Typography.Text type="danger" data-testid="schedule-run-error">
            {why}
          </Typography.Text>
        </Tooltip>
      )}
    </Space>
  );
}

/** The last runs of one schedule (an expanded row). */
function RunList({ scheduleId }: { scheduleId: number }) {
  const { t } = useTranslation();
  const runs = useScheduleRuns(scheduleId);
  const calendar = usePlantCalendar();
  if (runs.isError) return <Alert type="error" showIcon title={t('kpi.schedule.loadFailed')} />;
  return (
    <Table<ReportScheduleRun>
      size="small"
      rowKey="id"
      loading={runs.isPending}
      dataSource={runs.data ?? []}
      pagination={false}
      locale={{ emptyText: t('kpi.schedule.noRuns') }}
      data-testid="schedule-runs"
      columns={[
        { title: t('kpi.schedule.startedAt'), render: (_, r) => formatPlantTime(r.startedAt), width: 170 },
        { title: t('kpi.schedule.how'), render: (_, r) => t(`kpi.schedule.trigger.${r.trigger}`), width: 90 },
        {
          title: t('kpi.schedule.period'),
          render: (_, r) =>
            `${calendar.dateOf(Date.parse(r.periodStart))} ~ ${calendar.dateOf(Date.parse(r.periodEnd) - 1)}`,
        },
        { title: t('kpi.schedule.status'), render: (_, r) => <RunStatus run={r} /> },
        { title: t('kpi.schedule.recipients'), render: (_, r) => r.recipients.join(', ') },
      ]}
    />
  );
}

interface FormValues {
  frequency: ScheduleFrequency;
  weekday: number;
  monthDay: number;
  time: string;
  recipients: string[];
  language: Language;
  enabled: boolean;
}

/** Add or change a schedule; checks what the server checks, in the user's language. */
function ScheduleForm({
  reportId,
  schedule,
  onClose,
}: {
  reportId: number;
  schedule: ReportSchedule | 'new';
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const create = useCreateSchedule();
  const update = useUpdateSchedule();
  const frequency = Form.useWatch('frequency', form) ?? 'daily';
  const [failure, setFailure] = useState<string | null>(null);
  const initial: FormValues =
    schedule === 'new'
      ? {
          frequency: 'daily',
          weekday: 1,
          monthDay: 1,
          time: '07:00',
          recipients: [],
          language: (LANGUAGES as readonly string[]).includes(i18n.language)
            ? (i18n.language as Language)
            : 'zh',
          enabled: true,
        }
      : schedule;

  const submit = async () => {
    const v = await validValues(form);
    if (!v) return;
    const input: ReportScheduleInput = {
      ...v,
      time: v.time.trim(),
      recipients: v.recipients.map((r) => r.trim()),
    };
    setFailure(null);
    try {
      if (schedule === 'new') await create.mutateAsync({ reportId, input });
      else await update.mutateAsync({ id: schedule.id, input });
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
      return;
    }
    message.success(schedule === 'new' ? t('kpi.schedule.created') : t('kpi.schedule.saved'));
    onClose();
  };

  return (
    <Modal
      open
      title={schedule === 'new' ? t('kpi.schedule.add') : t('kpi.schedule.edit')}
      onCancel={onClose}
      onOk={submit}
      confirmLoading={create.isPending || update.isPending}
      okText={t('common.confirm')}
      cancelText={t('common.cancel')}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={initial} data-testid="schedule-form">
        <Form.Item
          name="frequency"
          label={t('kpi.schedule.frequency')}
          extra={t(`kpi.schedule.covers.${frequency}`)}
        >
          <Segmented
            options={SCHEDULE_FREQUENCIES.map((f) => ({ value: f, label: t(`kpi.schedule.${f}`) }))}
          />
        </Form.Item>
        {/* Both stay in the form while hidden: the server keeps them whatever the frequency. */}
        <Form.Item name="weekday" label={t('kpi.schedule.weekday')} hidden={frequency !== 'weekly'}>
          <Select options={WEEKDAYS.map((d) => ({ value: d, label: t(`kpi.schedule.days.${d}`) }))} />
        </Form.Item>
        <Form.Item name="monthDay" label={t('kpi.schedule.monthDay')} hidden={frequency !== 'monthly'}>
          <InputNumber min={1} max={31} precision={0} />
        </Form.Item>
        <Form.Item
          name="time"
          label={t('kpi.schedule.time')}
          rules={[
            { required: true, message: t('kpi.schedule.timeRequired') },
            {
              validator: async (_, v: string) => {
                if (v?.trim() && !TIME.test(v.trim())) throw new Error(t('kpi.schedule.timeInvalid'));
              },
            },
          ]}
        >
          <Input placeholder="07:00" style={{ width: 120 }} aria-label={t('kpi.schedule.time')} />
        </Form.Item>
        <Form.Item
          name="recipients"
          label={t('kpi.schedule.recipients')}
          extra={t('kpi.schedule.recipientsHint')}
          rules={[
            {
              validator: async (_, list: string[] = []) => {
                if (list.length === 0) throw new Error(t('kpi.schedule.recipientsRequired'));
                const bad = list.find((r) => !EMAIL.test(r.trim()));
                if (bad) throw new Error(t('kpi.schedule.recipientsInvalid', { address: bad }));
                if (list.length > SCHEDULE_MAX_RECIPIENTS)
                  throw new Error(t('kpi.schedule.recipientsMax', { max: SCHEDULE_MAX_RECIPIENTS }));
              },
            },
          ]}
        >
          <Select
            mode="tags"
            open={false}
            tokenSeparators={[',', ';', ' ']}
            suffixIcon={null}
            aria-label={t('kpi.schedule.recipients')}
          />
        </Form.Item>
        <Form.Item name="language" label={t('kpi.schedule.language')}>
          <Select options={LANGUAGES.map((l) => ({ value: l, label: t(`kpi.schedule.languages.${l}`) }))} />
        </Form.Item>
        <Form.Item name="enabled" label={t('kpi.schedule.enabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
        {failure && <Alert type="error" showIcon title={failure} data-testid="schedule-save-error" />}
      </Form>
    </Modal>
  );
}

export interface ScheduleDialogProps {
  report: ReportNode;
  open: boolean;
  onClose: () => void;
}

/**
 * A report's schedules (docs/report-schedules.md): the list with the next and last run, add and
 * edit, delete with confirmation, send now, and each schedule's last runs in its expanded row.
 */
export function ScheduleDialog({ report, open, onClose }: ScheduleDialogProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const schedules = useReportSchedules(report.id, open);
  const remove = useDeleteSchedule();
  const send = useSendSchedule();
  const confirmDelete = useConfirmDelete();
  const [editing, setEditing] = useState<ReportSchedule | 'new' | null>(null);
  const [sending, setSending] = useState<number | null>(null);
  const list = schedules.data ?? [];

  const sendNow = async (s: ReportSchedule) => {
    setSending(s.id);
    try {
      const run = await send.mutateAsync(s.id);
      if (run.status === 'sent') message.success(t('kpi.schedule.sent', { count: run.recipients.length }));
      else
        message.warning(
          t('kpi.schedule.sendFailed', {
            reason: run.errorCode ? t(`kpi.schedule.error.${run.errorCode}`) : run.error,
          }),
        );
    } finally {
      setSending(null);
    }
  };

  const addButton = (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
      {t('kpi.schedule.add')}
    </Button>
  );

  let body: ReactNode;
  if (schedules.isError) {
    body = (
      <Alert
        type="error"
        showIcon
        title={t('kpi.schedule.loadFailed')}
        description={schedules.error instanceof Error ? schedules.error.message : undefined}
        action={<Button onClick={() => schedules.refetch()}>{t('kpi.schedule.retry')}</Button>}
        data-testid="schedule-load-error"
      />
    );
  } else if (!schedules.isPending && list.length === 0) {
    body = (
      <Empty description={t('kpi.schedule.empty')} data-testid="schedule-empty">
        {addButton}
      </Empty>
    );
  } else {
    body = (
      <Space orientation="vertical" style={{ width: '100%' }}>
        <div style={{ textAlign: 'right' }}>{addButton}</div>
        <Table<ReportSchedule>
          rowKey="id"
          size="small"
          loading={schedules.isPending}
          dataSource={list}
          pagination={false}
          data-testid="schedule-list"
          expandable={{ expandedRowRender: (s) => <RunList scheduleId={s.id} /> }}
          columns={[
            { title: t('kpi.schedule.frequency'), render: (_, s) => scheduleWhen(t, s) },
            { title: t('kpi.schedule.recipients'), render: (_, s) => s.recipients.join(', ') },
            {
              title: t('kpi.schedule.language'),
              render: (_, s) => t(`kpi.schedule.languages.${s.language}`),
              width: 90,
            },
            {
              title: t('kpi.schedule.nextRun'),
              render: (_, s) =>
                s.enabled ? formatPlantTime(s.nextRunAt) : <Tag>{t('kpi.schedule.off')}</Tag>,
              width: 170,
            },
            {
              title: t('kpi.schedule.lastRun'),
              render: (_, s) =>
                s.lastRun ? (
                  <Space orientation="vertical" size={0}>
                    <Typography.Text type="secondary">{formatPlantTime(s.lastRun.startedAt)}</Typography.Text>
                    <RunStatus run={s.lastRun} />
                  </Space>
                ) : (
                  <Typography.Text type="secondary">{t('kpi.schedule.never')}</Typography.Text>
                ),
            },
            {
              title: t('kpi.schedule.actions'),
              width: 130,
              render: (_, s) => (
                <Space size={0}>
                  <Tooltip title={t('kpi.schedule.sendNow')}>
                    <Button
                      type="text"
                      icon={<SendOutlined />}
                      aria-label={t('kpi.schedule.sendNow')}
                      loading={sending === s.id}
                      disabled={sending !== null}
                      onClick={() => void sendNow(s)}
                    />
                  </Tooltip>
                  <Tooltip title={t('kpi.schedule.edit')}>
                    <Button
                      type="text"
                      icon={<EditOutlined />}
                      aria-label={t('kpi.schedule.edit')}
                      onClick={() => setEditing(s)}
                    />
                  </Tooltip>
                  <Tooltip title={t('kpi.delete')}>
                    <Button
                      type="text"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={t('kpi.delete')}
                      onClick={() =>
                        confirmDelete({
                          title: t('kpi.schedule.deleteTitle'),
                          content: t('kpi.schedule.deleteText', {
                            when: scheduleWhen(t, s),
                            to: s.recipients.join(', '),
                          }),
                          onDelete: () => remove.mutateAsync(s.id),
                        })
                      }
                    />
                  </Tooltip>
                </Space>
              ),
            },
          ]}
        />
      </Space>
    );
  }

  return (
    <Modal
      open={open}
      title={t('kpi.schedule.title', { name: report.name })}
      onCancel={onClose}
      footer={null}
      width={1000}
      destroyOnHidden
    >
      {body}
      {editing !== null && (
        <ScheduleForm reportId={report.id} schedule={editing} onClose={() => setEditing(null)} />
      )}
    </Modal>
  );
}
