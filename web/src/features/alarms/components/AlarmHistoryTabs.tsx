import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { AlarmHealthTab } from './AlarmHealthTab.tsx';
import { AlarmHistoryScreen } from './AlarmHistoryScreen.tsx';
import { OutOfServiceTab } from './OutOfServiceTab.tsx';

const TABS = ['history', 'health', 'outOfService'] as const;
type Tab = (typeof TABS)[number];

/**
 * alarm_history: the list (the default, what the bell links to), the alarm system's health
 * (`?tab=health`) and the alarms out of service (`?tab=outOfService`). Each tab keeps its own parameters in the address; a link without `tab` lands on
 * the list.
 */
export function AlarmHistoryTabs() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const tab = TABS.find((x) => x === search.get('tab')) ?? 'history';
  const select = (next: string) => setSearch(next === 'history' ? {} : { tab: next }, { replace: true });
  return (
    <Tabs
      activeKey={tab}
      onChange={select}
      destroyOnHidden
      tabBarStyle={{ marginBottom: 12 }}
      items={TABS.map((key: Tab) => ({
        key,
        label: t(`alarms.historyTabs.${key}`),
        children:
          key === 'health' ? (
            <AlarmHealthTab />
          ) : key === 'outOfService' ? (
            <OutOfServiceTab />
          ) : (
            <AlarmHistoryScreen />
          ),
      }))}
    />
  );
}
