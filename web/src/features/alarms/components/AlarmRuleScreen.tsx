import { Card, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useAlarmAbilities } from '../abilities.ts';
import { MaintenanceTab } from './MaintenanceTab.tsx';
import { MonitorsTab } from './MonitorsTab.tsx';
import { NotifyTab } from './NotifyTab.tsx';
import { RulesTab } from './RulesTab.tsx';
import { TemplatesTab } from './TemplatesTab.tsx';

const TABS = ['rules', 'templates', 'monitors', 'maintenance', 'notify'] as const;
type Tab = (typeof TABS)[number];

const CONTENT: Record<Tab, () => React.JSX.Element> = {
  rules: RulesTab,
  templates: TemplatesTab,
  monitors: MonitorsTab,
  maintenance: MaintenanceTab,
  notify: NotifyTab,
};

/**
 * Alarm rules, templates, monitors, maintenance windows and notification settings (spec §7 Alarms);
 * the tab is kept in the address. Notification settings hold addresses and secrets: the server
 * answers them only to the alarm_rule grant, so the tab shows only to those who hold it.
 */
export function AlarmRuleScreen() {
  const { t } = useTranslation();
  const { canEditRules } = useAlarmAbilities();
  const [search, setSearch] = useSearchParams();
  const shown = TABS.filter((key) => key !== 'notify' || canEditRules);
  const tab = shown.find((x) => x === search.get('tab')) ?? 'rules';
  const select = (next: string) => setSearch(next === 'rules' ? {} : { tab: next }, { replace: true });
  return (
    <Card>
      <Tabs
        activeKey={tab}
        onChange={select}
        destroyOnHidden
        items={shown.map((key) => {
          const Content = CONTENT[key];
          return { key, label: t(`alarms.tabs.${key}`), children: <Content /> };
        })}
      />
    </Card>
  );
}
