import {
  EXPORT_FORMATS,
  EXPORT_TYPES,
  type ExportFormat,
  type ExportType,
  type StatisticsQuery,
} from '@kilowatch/contract';
import { Form, Modal, Radio, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { exportStatistics } from '../../../api/statistics.ts';
import { notify } from '../../../lib/notify.ts';
import { usePlantCalendar } from '../../../lib/plant-calendar.ts';

/** Spec §4: the export type defaults to standard. */
export const DEFAULT_EXPORT_TYPE: ExportType = 'standard';

const save = (blob: Blob, name: string) => {
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 1000);
};

/** The export dialog: standard (series × periods) or ERP (thing × period rows), xlsx or CSV. */
export function ExportDialog({
  open,
  onClose,
  query,
  metric,
}: {
  open: boolean;
  onClose(): void;
  query: StatisticsQuery;
  metric: string;
}) {
  const { t } = useTranslation();
  const calendar = usePlantCalendar();
  const [type, setType] = useState<ExportType>(DEFAULT_EXPORT_TYPE);
  const [format, setFormat] = useState<ExportFormat>('xlsx');
  const [busy, setBusy] = useState(false);

  const run = async () => {
    setBusy(true);
    try {
      const { circle: _circle, ...body } = query;
      const blob = await exportStatistics(type, { ...body, format });
      const stem = type === 'erp' ? 'erp' : 'statistics';
      save(blob, `${stem}-${metric}-${calendar.format(query.startTime ?? Date.now(), 'YYYYMMDD')}.${format}`);
      notify.success(t('toast.done'));
      onClose();
    } catch {
      // postForBlob already showed the status text (spec §8); the dialog stays open to retry.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('analysis.export.title')}
      onCancel={onClose}
      onOk={run}
      okText={t('analysis.export.ok')}
      confirmLoading={busy}
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item label={t('analysis.export.type')}>
          <Radio.Group
            value={type}
            onChange={(e) => setType(e.target.value)}
            options={EXPORT_TYPES.map((v) => ({ value: v, label: t(`analysis.export.types.${v}`) }))}
          />
        </Form.Item>
        <Form.Item label={t('analysis.export.format')}>
          <Radio.Group
            value={format}
            onChange={(e) => setFormat(e.target.value)}
            options={EXPORT_FORMATS.map((v) => ({ value: v, label: v.toUpperCase() }))}
          />
        </Form.Item>
        <Typography.Paragraph type="secondary">{t(`analysis.export.about.${type}`)}</Typography.Paragraph>
      </Form>
    </Modal>
  );
}
