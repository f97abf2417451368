import { useQueryClient } from '@tanstack/react-query';
import { Alert, Progress } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useDemoHistory } from '../api/demo.ts';

/**
 * While the demo plant's history is written in the background (its first start), says so with
 * how far it is; when it is done, the charts on screen are asked again once, to show it.
 */
export function DemoHistoryBanner() {
  const { t } = useTranslation();
  const history = useDemoHistory();
  const queryClient = useQueryClient();
  const state = history.data?.state;
  const previous = useRef(state);

  useEffect(() => {
    // Every screen may show the past (charts, bills, comparisons, EnPI): all of it is read again.
    if (previous.current === 'running' && state === 'done') void queryClient.invalidateQueries();
    previous.current = state;
  }, [state, queryClient]);

  if (state !== 'running' && state !== 'failed') return null;
  const percent = history.data?.percent ?? 0;
  return (
    <Alert
      type={state === 'failed' ? 'warning' : 'info'}
      showIcon
      banner
      data-testid="demo-history-banner"
      style={{ marginBottom: 16 }}
      title={state === 'failed' ? t('demoHistory.failed') : t('demoHistory.running', { percent })}
      action={
        state === 'running' ? (
          <Progress percent={percent} size="small" style={{ width: 120, margin: 0 }} aria-hidden />
        ) : undefined
      }
    />
  );
}
