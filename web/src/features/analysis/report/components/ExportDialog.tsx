import {
  EXPORT_FORMATS,
  EXPORT_TYPES,
  type ExportFormat,
  type ExportType,
  type StatisticsQuery,
} from '@kilowatch/contract';
import { Form, Modal, Progress, Radio, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { exportStatistics } from '../../../../api/statistics.ts';
import type { DownloadProgress } from '../../../../lib/http.ts';
import { notify } from '../../../../lib/notify.ts';
import { usePlantCalendar } from '../../../../lib/plant-calendar.ts';

/** Spec §4: the export type defaults to standard. */
const DEFAULT_EXPORT_TYPE: ExportType = 'standard';

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

/** 1.2 MB, 340 KB, 12 B: how much of the file has arrived. */
function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${bytes} B`;
}

type Stage = { state: 'running'; progress: DownloadProgress | null } | { state: 'done'; bytes: number };

/**
 * The export dialog: standard (series × periods) or ERP (thing × period rows), xlsx or CSV. The
 * file streams in with a progress bar (bytes; a percentage when the length, or a CSV's rows, are
 * known); cancelling aborts the download, and a download cut short saves nothing.
 */
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
  const [stage, setStage] = useState<Stage | null>(null);
  const abort = useRef<AbortController | null>(null);
  const busy = stage?.state === 'running';
  useEffect(() => () => abort.current?.abort(), []);

  const run = async () => {
    const controller = new AbortController();
    abort.current = controller;
    setStage({ state: 'running', progress: null });
    try {
      const { circle: _circle, ...body } = query;
      const blob = await exportStatistics(
        type,
        { ...body, format },
        {
          signal: controller.signal,
          onProgress: (progress) => setStage({ state: 'running', progress }),
        },
      );
      const stem = type === 'erp' ? 'erp' : 'statistics';
      save(blob, `${stem}-${metric}-${calendar.format(query.startTime ?? Date.now(), 'YYYYMMDD')}.${format}`);
      setStage({ state: 'done', bytes: blob.size });
      notify.success(t('toast.done'));
    } catch {
      // postForBlob already showed the status text (spec §8), or the reason a download was cut
      // short; a cancel shows nothing. The dialog stays open to retry.
      setStage(null);
    } finally {
      if (abort.current === controller) abort.current = null;
    }
  };

  const cancel = () => {
    abort.current?.abort();
    setStage(null);
    onClose();
  };

  const progress = stage?.state === 'running' ? stage.progress : null;
  const received = stage?.state === 'done' ? stage.bytes : (progress?.received ?? 0);

  return (
    <Modal
      open={open}
      title={t('analysis.export.title')}
      onCancel={cancel}
      onOk={run}
      okText={t('analysis.export.ok')}
      cancelText={busy ? t('analysis.export.cancel') : t('analysis.export.close')}
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
        {stage && (
          <div data-testid="export-progress" data-state={stage.state}>
            <Progress
              percent={stage.state === 'done' ? 100 : Math.round(progress?.percent ?? 0)}
              status={stage.state === 'done' ? 'success' : 'active'}
              showInfo={stage.state === 'done' || progress?.percent != null}
            />
            <Typography.Text type="secondary">
              {stage.state === 'done'
                ? t('analysis.export.done', { size: formatBytes(received) })
                : progress?.rows
                  ? t('analysis.export.receivedRows', { size: formatBytes(received), rows: progress.rows })
                  : t('analysis.export.received', { size: formatBytes(received) })}
            </Typography.Text>
          </div>
        )}
      </Form>
    </Modal>
  );
}
