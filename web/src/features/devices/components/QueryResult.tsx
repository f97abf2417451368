import type { UseQueryResult } from '@tanstack/react-query';
import { Button, Result } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A drawer's data: the children once loaded, or an error with a retry button. */
export function QueryResult({ query, children }: { query: UseQueryResult<unknown>; children: ReactNode }) {
  const { t } = useTranslation();
  if (query.isError && query.data === undefined) {
    return (
      <Result
        status="error"
        title={t('devices.common.loadFailed')}
        subTitle={query.error.message}
        extra={<Button onClick={() => query.refetch()}>{t('common.retry')}</Button>}
      />
    );
  }
  return <>{children}</>;
}
