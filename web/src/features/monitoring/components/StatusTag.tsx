import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { runState } from '../lib/status.ts';

/** 运转状态 as a coloured tag: 运行 (green) / 停机 (red) / unknown (grey). */
export function RunStateTag({ value }: { value: unknown }) {
  const { t } = useTranslation();
  const state = runState(value);
  const color = state === 'running' ? 'success' : state === 'stopped' ? 'error' : 'default';
  return <Tag color={color}>{t(`monitoring.runState.${state}`)}</Tag>;
}

/** 在线 / 离线 from lastSeenAgo. */
export function OnlineTag({ online }: { online: boolean }) {
  const { t } = useTranslation();
  return (
    <Tag color={online ? 'processing' : 'default'}>
      {t(online ? 'monitoring.online' : 'monitoring.offline')}
    </Tag>
  );
}
