import { BugOutlined } from '@ant-design/icons';
import { Badge, Button, Tooltip } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorLog } from '../lib/error-log.ts';

const ErrorLogDialog = lazy(() => import('./ErrorLogDialog.tsx'));

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
      {open && (
        <Suspense fallback={null}>
          <ErrorLogDialog open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
