import { CloseCircleFilled } from '@ant-design/icons';
import { Button } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { logError } from '../../lib/error-log.ts';

/** A view that throws while rendering: logged to the Error Log and shown, not a blank page. */
export function RouteErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  useEffect(() => logError(error, 'route render'), [error]);
  // Plain markup rather than antd's Result (its illustrations weigh 30 KB): this boundary is in every first load.
  return (
    <main style={{ padding: '48px 32px', textAlign: 'center' }}>
      <div role="alert">
        <CloseCircleFilled style={{ fontSize: 72, color: '#d9363e' }} />
        <h1 style={{ margin: '24px 0 8px', fontSize: 24, fontWeight: 600 }}>{t('http.system')}</h1>
        <p style={{ color: 'rgba(0, 0, 0, 0.65)', marginBottom: 24 }}>
          {error instanceof Error ? error.message : String(error)}
        </p>
        <Button type="primary" onClick={() => window.location.reload()}>
          {t('common.retry')}
        </Button>
      </div>
    </main>
  );
}
