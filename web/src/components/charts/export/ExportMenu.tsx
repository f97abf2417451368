import { DownloadOutlined } from '@ant-design/icons';
import { App, Button, Dropdown, type MenuProps } from 'antd';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { plantTimeZone } from '../../../api/telemetry.ts';
import { toCsv } from './csv.ts';
import { saveBlob, saveUrl, XLSX_MIME } from './download.ts';
import { exportFileName, type Sheet } from './sheet.ts';
import { toXlsx } from './xlsx.ts';

export type ExportFormat = 'csv' | 'xlsx' | 'png';

export interface ExportSource {
  /** File and sheet name (e.g. the metric or screen). */
  title: string;
  /** The rows on screen; built when the user exports, not on every render. */
  sheet?: () => Sheet;
  /** The plant's zone (from the query answer); the browser's until one arrives. */
  timeZone?: string | undefined;
  /** The element holding the chart, for PNG. */
  chart?: () => HTMLElement | null;
}

/**
 * Export what a chart or table shows as CSV, xlsx or PNG. Progress shows in a message while rows
 * are written (long exports), the file goes to the browser's downloads.
 */
export function useExport(source: ExportSource) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const key = useId();
  return async (format: ExportFormat) => {
    const timeZone = source.timeZone || plantTimeZone();
    const name = (ext: string) => exportFileName(source.title, ext, Date.now(), timeZone);
    try {
      if (format === 'png') {
        // Loaded on demand: screens without charts (fire) export tables without pulling ECharts in.
        const { chartIn } = await import('../chart-instance.ts');
        const chart = chartIn(source.chart?.() ?? null);
        if (!chart) throw new Error(t('charts.export.empty'));
        saveUrl(chart.getDataURL({ type: 'png', pixelRatio: 2, backgroundColor: '#fff' }), name('png'));
        void message.success(t('charts.export.pngDone'));
        return;
      }
      const sheet = source.sheet?.();
      if (!sheet || sheet.rows.length === 0) {
        void message.info(t('charts.export.empty'));
        return;
      }
      const show = (percent: number) =>
        void message.open({
          key,
          type: 'loading',
          content: t('charts.export.progress', { percent }),
          duration: 0,
        });
      show(0);
      // Rows are written in chunks; the last tenth is the file itself.
      const progress = (done: number, total: number) => show(Math.round((done / Math.max(1, total)) * 90));
      const blob =
        format === 'csv'
          ? new Blob([await toCsv(sheet, timeZone, progress)], { type: 'text/csv;charset=utf-8' })
          : new Blob([await toXlsx(sheet, timeZone, progress)], { type: XLSX_MIME });
      saveBlob(blob, name(format));
      void message.open({
        key,
        type: 'success',
        content: t('charts.export.done', { count: sheet.rows.length }),
        duration: 2,
      });
    } catch (error) {
      void message.open({
        key,
        type: 'error',
        content: t('charts.export.failed', {
          reason: error instanceof Error ? error.message : String(error),
        }),
      });
    }
  };
}

/** The export button of a chart card or table: a menu of the formats the source can give. */
export function ExportMenu({ source, disabled }: { source: ExportSource; disabled?: boolean }) {
  const { t } = useTranslation();
  const run = useExport(source);
  const items: MenuProps['items'] = [
    ...(source.sheet
      ? [
          { key: 'csv', label: t('charts.export.csv') },
          { key: 'xlsx', label: t('charts.export.xlsx') },
        ]
      : []),
    ...(source.chart ? [{ key: 'png', label: t('charts.export.png') }] : []),
  ];
  return (
    <Dropdown
      trigger={['click']}
      disabled={disabled}
      menu={{ items, onClick: ({ key }) => void run(key as ExportFormat) }}
    >
      <Button size="small" icon={<DownloadOutlined />} data-testid="export-menu">
        {t('charts.export.button')}
      </Button>
    </Dropdown>
  );
}
