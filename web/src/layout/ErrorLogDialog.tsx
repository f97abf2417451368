import { Button, Modal, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { type ErrorLogEntry, useErrorLog } from '../lib/error-log.ts';

/** The Error Log dialog (spec §8: Message, Info, Url, Stack); loaded when first opened. */
export default function ErrorLogDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const entries = useErrorLog((s) => s.entries);
  return (
    <Modal
      title={t('errorLog.title')}
      open={open}
      width="min(960px, 96vw)"
      onCancel={onClose}
      footer={[
        <Button key="clear" onClick={() => useErrorLog.getState().clear()} disabled={!entries.length}>
          {t('errorLog.clear')}
        </Button>,
        <Button key="ok" type="primary" onClick={onClose}>
          {t('common.confirm')}
        </Button>,
      ]}
    >
      <Table<ErrorLogEntry>
        rowKey="at"
        size="small"
        dataSource={entries}
        pagination={{ pageSize: 5, hideOnSinglePage: true }}
        locale={{ emptyText: t('errorLog.empty') }}
        columns={[
          { title: t('errorLog.message'), dataIndex: 'message', width: 200 },
          { title: t('errorLog.info'), dataIndex: 'info', width: 140 },
          { title: t('errorLog.url'), dataIndex: 'url', width: 200, ellipsis: true },
          {
            title: t('errorLog.stack'),
            dataIndex: 'stack',
            render: (stack: string) => (
              <Typography.Paragraph
                ellipsis={{ rows: 3, expandable: true }}
                style={{ whiteSpace: 'pre-wrap', margin: 0 }}
              >
                {stack}
              </Typography.Paragraph>
            ),
          },
        ]}
      />
    </Modal>
  );
}
