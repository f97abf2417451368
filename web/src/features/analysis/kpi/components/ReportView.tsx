import {
  CloudUploadOutlined,
  DownloadOutlined,
  LinkOutlined,
  MailOutlined,
  PlusOutlined,
  RollbackOutlined,
} from '@ant-design/icons';
import { PERIODS, type Period, type ReportComponent, type ReportNode } from '@kilowatch/contract';
import { App, Button, Card, DatePicker, Empty, Segmented, Space, Tag, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  exportReport,
  useCreateComponent,
  useDeleteComponent,
  usePatchComponent,
  usePublishReport,
  useReportComponents,
  useSaveLayouts,
} from '../../../../api/reports.ts';
import {
  ComponentCard,
  chartHeight,
  ReportGrid,
  useComponentEditor,
} from '../../../../components/report-grid/index.ts';
import { usePlantCalendar } from '../../../../lib/plant-calendar.ts';
import { ScheduleDialog } from './ScheduleDialog.tsx';

const PICKER: Record<Period, 'date' | 'month' | 'year'> = { day: 'date', month: 'month', year: 'year' };
const FILE_DATE: Record<Period, string> = { day: 'YYYY-MM-DD', month: 'YYYY-MM', year: 'YYYY' };

export interface ReportViewProps {
  report: ReportNode;
  period: Period;
  time: number;
  onPeriod: (period: Period, time: number) => void;
  canEdit: boolean;
  admin: boolean;
}

/** The stable link of a report (spec: a published report keeps it). */
const reportLink = (id: number) =>
  `${window.location.origin}${window.location.pathname}#/analysis/kpi?report=${id}`;

/**
 * One report: its period (day by hours, month by days, year by months on the plant calendar),
 * the component grid or the no-data state (spec §4), publication, the link and the xlsx export.
 */
export function ReportView({ report, period, time, onPeriod, canEdit, admin }: ReportViewProps) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const calendar = usePlantCalendar();
  const components = useReportComponents(report.id);
  const create = useCreateComponent();
  const patch = usePatchComponent();
  const remove = useDeleteComponent();
  const layouts = useSaveLayouts();
  const publish = usePublishReport();
  const editor = useComponentEditor<ReportComponent>({
    create: (input) => create.mutateAsync({ reportId: report.id, input }),
    patch: (c, input) => patch.mutateAsync({ reportId: report.id, componentId: c.id, patch: input }),
    remove: (c) => remove.mutateAsync({ reportId: report.id, componentId: c.id }),
    saving: create.isPending || patch.isPending,
    created: t('kpi.created'),
    saved: t('kpi.saved'),
  });
  const [exporting, setExporting] = useState(false);
  const [scheduling, setScheduling] = useState(false);
  const writable = canEdit && (!report.published || admin);
  const list = components.data ?? [];

  const doExport = async () => {
    setExporting(true);
    try {
      const blob = await exportReport({ reportId: report.id, period, time });
      const href = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = href;
      link.download = `${report.name}-${calendar.format(time, FILE_DATE[period])}.xlsx`;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(href), 1000);
    } finally {
      setExporting(false);
    }
  };

  const copyLink = async () => {
    const link = reportLink(report.id);
    try {
      await navigator.clipboard.writeText(link);
      message.success(t('kpi.linkCopied'));
    } catch {
      modal.info({ title: t('kpi.link'), content: <Typography.Text copyable>{link}</Typography.Text> });
    }
  };

  const togglePublish = () =>
    modal.confirm({
      title: report.published ? t('kpi.unpublishTitle') : t('kpi.publishTitle'),
      content: report.published ? t('kpi.unpublishText') : t('kpi.publishText'),
      onOk: async () => {
        await publish.mutateAsync({ id: report.id, published: !report.published });
        message.success(t('kpi.saved'));
      },
    });

  const pickerValue = dayjs(calendar.dateOf(time));
  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }}>
      <Card size="small" styles={{ body: { padding: '8px 12px' } }}>
        <Space wrap style={{ width: '100%', justifyContent: 'space-between' }}>
          <Space wrap>
            <Typography.Title level={5} style={{ margin: 0 }} data-testid="kpi-report-title">
              {report.name}
            </Typography.Title>
            {report.published && <Tag color="green">{t('kpi.published')}</Tag>}
            <Segmented
              value={period}
              options={PERIODS.map((p) => ({ value: p, label: t(`kpi.period.${p}`) }))}
              onChange={(p) => onPeriod(p as Period, time)}
            />
            <DatePicker
              picker={PICKER[period]}
              allowClear={false}
              value={pickerValue}
              aria-label={t('kpi.date')}
              onChange={(d) =>
                d && onPeriod(period, calendar.fromWall(Date.UTC(d.year(), d.month(), d.date(), 12)))
              }
            />
          </Space>
          <Space wrap>
            {writable && (
              <Button type="primary" icon={<PlusOutlined />} onClick={editor.add}>
                {t('reportGrid.component.add')}
              </Button>
            )}
            {canEdit && !report.published && (
              <Button icon={<CloudUploadOutlined />} onClick={togglePublish}>
                {t('kpi.publish')}
              </Button>
            )}
            {admin && report.published && (
              <Button icon={<RollbackOutlined />} onClick={togglePublish}>
                {t('kpi.unpublish')}
              </Button>
            )}
            {canEdit && (
              <Button icon={<MailOutlined />} onClick={() => setScheduling(true)} data-testid="kpi-schedules">
                {t('kpi.schedule.open')}
              </Button>
            )}
            <Tooltip title={t('kpi.link')}>
              <Button icon={<LinkOutlined />} aria-label={t('kpi.link')} onClick={copyLink} />
            </Tooltip>
            <Button
              icon={<DownloadOutlined />}
              loading={exporting}
              disabled={list.length === 0}
              onClick={doExport}
            >
              {t('kpi.export')}
            </Button>
          </Space>
        </Space>
        {report.published && !admin && (
          <Typography.Text type="secondary">{t('kpi.readOnly')}</Typography.Text>
        )}
      </Card>
      {list.length === 0 ? (
        <Card>
          <Empty
            description={components.isPending ? t('kpi.loading') : t('kpi.noComponents')}
            data-testid="kpi-no-data"
          >
            {writable && !components.isPending && (
              <Button type="primary" icon={<PlusOutlined />} onClick={editor.add}>
                {t('reportGrid.component.add')}
              </Button>
            )}
          </Empty>
        </Card>
      ) : (
        <ReportGrid
          components={list}
          writable={writable}
          onLayout={(changes) => layouts.mutate({ reportId: report.id, layouts: changes })}
          render={(c) => (
            <ComponentCard
              component={c}
              period={period}
              time={time}
              height={chartHeight(c.layout.h)}
              writable={writable}
              onEdit={() => editor.edit(c)}
              onCompare={(yoy) => patch.mutate({ reportId: report.id, componentId: c.id, patch: { yoy } })}
              onDelete={() => editor.remove(c)}
            />
          )}
        />
      )}
      {canEdit && <ScheduleDialog report={report} open={scheduling} onClose={() => setScheduling(false)} />}
      {editor.dialog}
    </Space>
  );
}
