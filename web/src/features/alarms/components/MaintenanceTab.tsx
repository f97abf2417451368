import { DeleteOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import type { MaintenanceWindow } from '@kilowatch/contract';
import {
  Alert,
  Button,
  DatePicker,
  Form,
  Input,
  Modal,
  Result,
  Segmented,
  Space,
  type TableColumnsType,
  Tag,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeleteMaintenance, useMaintenanceWindows, usePlanMaintenance } from '../../../api/alarms.ts';
import { useConfirmDelete } from '../../../components/crud/confirm-delete.tsx';
import { validValues } from '../../../lib/form.ts';
import { notify } from '../../../lib/notify.ts';
import { fromPicker, toPicker, usePlantCalendar } from '../../../lib/plant-calendar.ts';
import { useAlarmAbilities } from '../abilities.ts';
import type { Target } from '../lib/targets.ts';
import { PagedTable } from './PagedTable.tsx';
import { TargetPicker } from './TargetPicker.tsx';

/** The reason's length the server takes (contract MaintenanceInput). */
const REASON_MAX = 200;

type Status = 'planned' | 'active' | 'over';

const statusOf = (w: MaintenanceWindow, now: number): Status =>
  Date.parse(w.end) <= now ? 'over' : Date.parse(w.start) > now ? 'planned' : 'active';

const STATUS_COLOR: Record<Status, string> = { planned: 'blue', active: 'orange', over: 'default' };

/**
 * Maintenance windows (docs/alarms.md): a thing or region under maintenance from a start to an end;
 * alarms raised on it meanwhile are kept as suppressed and do not ring. Times are the plant's clock.
 */
export function MaintenanceTab() {
  const { t } = useTranslation();
  const calendar = usePlantCalendar();
  const { canEditRules } = useAlarmAbilities();
  const [scope, setScope] = useState<'open' | 'all'>('open');
  const [page, setPage] = useState({ page: 1, pageSize: 10 });
  // "Not over" is judged when the tab opened or the user refreshed, so the query key stays put.
  const [openAt, setOpenAt] = useState(() => Date.now());
  const windows = useMaintenanceWindows({ ...page, openAt: scope === 'open' ? openAt : undefined });
  const remove = useDeleteMaintenance();
  const confirmDelete = useConfirmDelete();
  const [planning, setPlanning] = useState(false);
  const time = (iso: string) => calendar.format(Date.parse(iso), 'YYYY-MM-DD HH:mm');

  const columns: TableColumnsType<MaintenanceWindow> = [
    {
      title: t('alarms.maintenance.target'),
      key: 'target',
      render: (_, w) => (
        <Space size={4}>
          <Tag>{t(`alarms.resourceType.${w.targetType}`)}</Tag>
          {w.targetName || `#${w.targetId}`}
        </Space>
      ),
    },
    { title: t('alarms.maintenance.start'), dataIndex: 'start', render: time },
    { title: t('alarms.maintenance.end'), dataIndex: 'end', render: time },
    {
      title: t('alarms.maintenance.status'),
      key: 'status',
      render: (_, w) => {
        const status = statusOf(w, openAt);
        return <Tag color={STATUS_COLOR[status]}>{t(`alarms.maintenance.statuses.${status}`)}</Tag>;
      },
    },
    { title: t('alarms.maintenance.reason'), dataIndex: 'reason', render: (v: string) => v || '—' },
    { title: t('alarms.maintenance.createdBy'), dataIndex: 'createdBy', render: (v: string) => v || '—' },
    { title: t('alarms.maintenance.createdAt'), dataIndex: 'createdAt', render: time },
    ...(canEditRules
      ? [
          {
            title: t('crud.actions'),
            key: 'actions',
            render: (_: unknown, w: MaintenanceWindow) => (
              <Button
                size="small"
                type="link"
                danger
                icon={<DeleteOutlined />}
                data-testid="maintenance-delete"
                onClick={() =>
                  confirmDelete({
                    content: t('alarms.maintenance.deleteConfirm', {
                      target: w.targetName,
                      start: time(w.start),
                      end: time(w.end),
                    }),
                    onDelete: () => remove.mutateAsync(w.id),
                  })
                }
              >
                {t('alarms.maintenance.remove')}
              </Button>
            ),
          },
        ]
      : []),
  ];

  if (windows.isError && !windows.data) {
    return (
      <Result
        status="error"
        title={t('crud.loadFailed')}
        subTitle={windows.error.message}
        extra={<Button onClick={() => windows.refetch()}>{t('common.retry')}</Button>}
      />
    );
  }

  return (
    <>
      <Space wrap style={{ marginBottom: 16 }}>
        <Segmented<'open' | 'all'>
          value={scope}
          onChange={(v) => {
            setScope(v);
            setPage((p) => ({ ...p, page: 1 }));
          }}
          options={[
            { value: 'open', label: t('alarms.maintenance.scopeOpen') },
            { value: 'all', label: t('alarms.maintenance.scopeAll') },
          ]}
        />
        {canEditRules && (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setPlanning(true)}
            data-testid="maintenance-create"
          >
            {t('alarms.maintenance.plan')}
          </Button>
        )}
        <Button
          icon={<ReloadOutlined />}
          aria-label={t('alarms.history.refresh')}
          onClick={() => (scope === 'open' ? setOpenAt(Date.now()) : void windows.refetch())}
        />
      </Space>
      <PagedTable<MaintenanceWindow>
        query={windows}
        columns={columns}
        empty={t('alarms.maintenance.empty')}
        page={page}
        setPage={setPage}
        testId="maintenance-table"
      />
      <PlanMaintenanceDialog open={planning} onClose={() => setPlanning(false)} />
    </>
  );
}

interface PlanValues {
  range: [Dayjs, Dayjs];
  reason: string;
}

/** Plans one window over the chosen range on every device or region picked in the tree dialog. */
function PlanMaintenanceDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const calendar = usePlantCalendar();
  const plan = usePlanMaintenance();
  const [form] = Form.useForm<PlanValues>();
  const [targets, setTargets] = useState<Target[]>([]);
  const [targetsError, setTargetsError] = useState(false);

  // The form remounts on each opening (destroyOnHidden) with fresh defaults; the targets are state.
  useEffect(() => {
    if (!open) return;
    setTargets([]);
    setTargetsError(false);
  }, [open]);
  // The pickers show and return the plant's wall clock, to the minute.
  const pickerValue = (time: number) => toPicker(calendar, time);
  const fromPickerAt = (d: Dayjs) => fromPicker(calendar, d.second(0).millisecond(0));
  const defaults = (): PlanValues => {
    const now = Date.now();
    return { range: [pickerValue(now), pickerValue(now + 2 * 3_600_000)], reason: '' };
  };

  async function submit() {
    const values = await validValues(form);
    if (targets.length === 0) setTargetsError(true);
    if (!values || targets.length === 0) return;
    const [from, to] = values.range;
    const start = fromPickerAt(from);
    const end = fromPickerAt(to);
    await plan
      .mutateAsync(
        targets.map((tg) => ({
          targetType: tg.type,
          targetId: tg.id,
          start,
          end,
          reason: values.reason.trim(),
        })),
      )
      .then(() => {
        notify.success(t('alarms.maintenance.planned', { count: targets.length }));
        onClose();
      })
      // The http module has shown the server's reason; the dialog stays open to correct it.
      .catch(() => plan.reset());
  }

  return (
    <Modal
      open={open}
      title={t('alarms.maintenance.planTitle')}
      okText={t('common.confirm')}
      cancelText={t('common.cancel')}
      confirmLoading={plan.isPending}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={defaults()} preserve={false}>
        <Form.Item
          label={t('alarms.maintenance.targets')}
          required
          validateStatus={targetsError ? 'error' : undefined}
          help={targetsError ? t('alarms.maintenance.targetsRequired') : undefined}
        >
          <TargetPicker
            targets={targets}
            onChange={(picked) => {
              setTargets(picked);
              if (picked.length > 0) setTargetsError(false);
            }}
            categoryId={null}
            testId="maintenance"
          />
        </Form.Item>
        <Form.Item
          name="range"
          label={t('alarms.maintenance.range', { zone: calendar.timeZone })}
          rules={[
            { required: true, message: t('alarms.maintenance.rangeRequired') },
            {
              validator: async (_, value: [Dayjs, Dayjs] | null) => {
                if (!value?.[0] || !value[1]) return;
                const [start, end] = [fromPickerAt(value[0]), fromPickerAt(value[1])];
                if (end <= start) throw new Error(t('alarms.maintenance.rangeOrder'));
                if (end <= Date.now()) throw new Error(t('alarms.maintenance.rangePast'));
              },
            },
          ]}
        >
          <DatePicker.RangePicker
            showTime={{ format: 'HH:mm' }}
            format="YYYY-MM-DD HH:mm"
            style={{ width: '100%' }}
            data-testid="maintenance-range"
          />
        </Form.Item>
        <Form.Item
          name="reason"
          label={t('alarms.maintenance.reason')}
          rules={[{ max: REASON_MAX, message: t('alarms.maintenance.reasonMax', { max: REASON_MAX }) }]}
        >
          <Input.TextArea rows={2} maxLength={REASON_MAX} showCount data-testid="maintenance-reason" />
        </Form.Item>
        <Alert type="info" showIcon title={t('alarms.maintenance.hint')} />
      </Form>
    </Modal>
  );
}
