import { BugOutlined } from '@ant-design/icons';
import { Badge, Button, Modal, Table, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ErrorLogEntry, useErrorLog } from '../lib/error-log.ts';

/** Top-bar entry to the Error Log dialog (spec §8: Message, Info, Url, Stack). */
export function ErrorLogButton() {
  const { t } = useTranslation();
  const entries = useErrorLog((s) => s.entries);
  const [open, setOpen] = useState(false);
  return (
    <>
      <Tooltip title={t('errorLog.title')}>
        <Badge count={entries.length} size="small" offset={[-4, 4]}>
          <Button
            type="text"
            icon={<BugOutlined />}
            aria-label={t('navbar.errorLog')}
            onClick={() => setOpen(true)}
            data-testid="error-log-button"
          />
        </Badge>
      </Tooltip>
      <Modal
        title={t('errorLog.title')}
        open={open}
        width="min(960px, 96vw)"
        onCancel={() => setOpen(false)}
        footer={[
          <Button key="clear" onClick={() => useErrorLog.getState().clear()} disabled={!entries.length}>
            {t('errorLog.clear')}
          </Button>,
          <Button key="ok" type="primary" onClick={() => setOpen(false)}>
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
    </>
  );
}
