import { Card, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { MonitorsTab } from './MonitorsTab.tsx';
import { RulesTab } from './RulesTab.tsx';
import { TemplatesTab } from './TemplatesTab.tsx';

const TABS = ['rules', 'templates', 'monitors'] as const;
type Tab = (typeof TABS)[number];

/** Alarm rules, templates and monitors (spec §7 Alarms); the tab is kept in the address. */
export function AlarmRuleScreen() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const tab = TABS.find((x) => x === search.get('tab')) ?? 'rules';
  const select = (next: string) => setSearch(next === 'rules' ? {} : { tab: next }, { replace: true });
  return (
    <Card>
      <Tabs
        activeKey={tab}
        onChange={select}
        destroyOnHidden
        items={TABS.map((key: Tab) => ({
          key,
          label: t(`alarms.tabs.${key}`),
          children: key === 'rules' ? <RulesTab /> : key === 'templates' ? <TemplatesTab /> : <MonitorsTab />,
        }))}
      />
    </Card>
  );
}
