import { Button, Result } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { logError } from '../../lib/error-log.ts';

/** A view that throws while rendering: logged to the Error Log and shown, not a blank page. */
export function RouteErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  useEffect(() => logError(error, 'route render'), [error]);
  return (
    <Result
      status="error"
      title={t('http.system')}
      subTitle={error instanceof Error ? error.message : String(error)}
      extra={
        <Button type="primary" onClick={() => window.location.reload()}>
          {t('common.retry')}
        </Button>
      }
    />
  );
}
