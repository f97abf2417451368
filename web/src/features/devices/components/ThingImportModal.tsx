import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { type ImportRowError, THING_IMPORT_COLUMNS } from '@kilowatch/contract';
import { Alert, Button, Modal, Space, Table, Typography, Upload, type UploadFile } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  downloadImportTemplate,
  IMPORT_FORMATS,
  IMPORT_MAX_BYTES,
  type ImportFormat,
  ImportRefused,
  useImportThings,
} from '../../../api/things.ts';
import { notify } from '../../../lib/notify.ts';

const ACCEPT = '.xlsx,.csv';

/** Why a picked file cannot be sent, or null when it can. */
export function importFileProblem(file: { name: string; size: number }): 'badType' | 'tooLarge' | null {
  if (!/\.(xlsx|csv)$/i.test(file.name)) return 'badType';
  if (file.size > IMPORT_MAX_BYTES) return 'tooLarge';
  return null;
}

/** Bulk import of things from an xlsx/csv file: all rows or none, with the faulty rows listed. */
export function ThingImportModal({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const importThings = useImportThings();
  const [file, setFile] = useState<File | null>(null);
  const [refused, setRefused] = useState<ImportRefused | null>(null);
  const [downloading, setDownloading] = useState<ImportFormat | null>(null);

  function reset() {
    setFile(null);
    setRefused(null);
    importThings.reset();
  }

  function close() {
    reset();
    onClose();
  }

  async function download(format: ImportFormat) {
    setDownloading(format);
    try {
      await downloadImportTemplate(format);
    } catch (e) {
      notify.error((e as Error).message);
    } finally {
      setDownloading(null);
    }
  }

  async function start() {
    if (!file) return;
    setRefused(null);
    try {
      const result = await importThings.mutateAsync(file);
      notify.success(t('devices.import.success', { count: result.created }));
      close();
    } catch (e) {
      if (e instanceof ImportRefused) setRefused(e);
      else notify.error((e as Error).message);
    }
  }

  const fileList: UploadFile[] = file
    ? [{ uid: 'import', name: file.name, size: file.size, status: 'done' }]
    : [];

  return (
    <Modal
      open={open}
      title={t('devices.import.title')}
      width={720}
      onCancel={close}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={close}>{t('common.cancel')}</Button>
          <Button
            type="primary"
            onClick={start}
            disabled={!file}
            loading={importThings.isPending}
            data-testid="import-start"
          >
            {t('devices.import.start')}
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph>
        {t('devices.import.step1', { columns: THING_IMPORT_COLUMNS.join(', ') })}
      </Typography.Paragraph>
      <Space style={{ marginBottom: 16 }}>
        {IMPORT_FORMATS.map((format) => (
          <Button
            key={format}
            icon={<DownloadOutlined />}
            loading={downloading === format}
            onClick={() => download(format)}
          >
            {t(`devices.import.template.${format}`)}
          </Button>
        ))}
      </Space>
      <Typography.Paragraph>{t('devices.import.step2')}</Typography.Paragraph>
      <Upload.Dragger
        accept={ACCEPT}
        maxCount={1}
        fileList={fileList}
        beforeUpload={(picked) => {
          const problem = importFileProblem(picked);
          if (problem) {
            notify.error(t(`devices.import.${problem}`));
            return Upload.LIST_IGNORE;
          }
          setFile(picked);
          setRefused(null);
          // Sent with the import button, not on pick.
          return false;
        }}
        onRemove={() => {
          setFile(null);
          setRefused(null);
        }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{t('devices.import.choose')}</p>
        <p className="ant-upload-hint">{t('devices.import.limits')}</p>
      </Upload.Dragger>
      {refused && (
        <div style={{ marginTop: 16 }} data-testid="import-errors">
          <Alert
            type="error"
            showIcon
            title={t('devices.import.refused')}
            description={refused.message}
            style={{ marginBottom: 12 }}
          />
          <Table<ImportRowError & { key: number }>
            size="small"
            dataSource={refused.errors.map((error, key) => ({ ...error, key }))}
            pagination={refused.errors.length > 10 ? { pageSize: 10, size: 'small' } : false}
            columns={[
              { title: t('devices.import.row'), dataIndex: 'row', width: 80 },
              { title: t('devices.import.column'), dataIndex: 'column', width: 140 },
              { title: t('devices.import.message'), dataIndex: 'message' },
            ]}
          />
        </div>
      )}
    </Modal>
  );
}
