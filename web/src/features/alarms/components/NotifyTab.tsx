import { Result, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { isAdmin, useSession } from '../../../lib/session.ts';
import { useAlarmAbilities } from '../abilities.ts';
import { NotifyOutboxCard } from './NotifyOutboxCard.tsx';
import { NotifyRoutesCard } from './NotifyRoutesCard.tsx';
import { NotifySmtpCard } from './NotifySmtpCard.tsx';

/**
 * Notification settings (docs/alarms.md, Notifications): the SMTP server, the routes sending
 * alarms of chosen severities and events to a webhook or by e-mail, and the outbox of what was,
 * is being, or could not be delivered. All of it needs the alarm_rule grant, reads included; the
 * SMTP server only admins set and test (the server refuses others: a test connects where told).
 */
export function NotifyTab() {
  const { t } = useTranslation();
  const { canEditRules } = useAlarmAbilities();
  const admin = useSession((s) => isAdmin(s.roles));
  if (!canEditRules) return <Result status="403" subTitle={t('alarms.notify.forbidden')} />;
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <NotifyRoutesCard />
      <NotifyOutboxCard />
      {admin && <NotifySmtpCard />}
    </Space>
  );
}
