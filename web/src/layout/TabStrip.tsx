import { Dropdown, type MenuProps, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { findRoute } from '../app/route-table.ts';
import { nextPathAfterClosing, useUi, type VisitedView } from '../app/ui-store.ts';
import styles from './layout.module.css';

/** Visited views as tabs; right-click offers refresh, close, close others, close all (spec §2). */
export function TabStrip() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const views = useUi((s) => s.visitedViews);
  const [menuFor, setMenuFor] = useState<VisitedView | null>(null);

  useEffect(() => {
    const route = findRoute(location.pathname);
    if (!route || route.noTab || route.children) return;
    useUi.getState().addView({
      path: route.path,
      fullPath: `${location.pathname}${location.search}`,
      titleKey: route.titleKey,
    });
  }, [location.pathname, location.search]);

  const isActive = (v: VisitedView) => v.path === location.pathname;

  function close(view: VisitedView) {
    const remaining = useUi.getState().closeView(view.path);
    if (isActive(view)) navigate(nextPathAfterClosing(remaining));
  }

  function onMenu(view: VisitedView, key: string) {
    const ui = useUi.getState();
    if (key === 'refresh') {
      ui.refreshView(view.path);
      if (!isActive(view)) navigate(view.fullPath);
    } else if (key === 'close') close(view);
    else if (key === 'closeOthers') {
      ui.closeOthers(view.path);
      if (!isActive(view)) navigate(view.fullPath);
    } else if (key === 'closeAll') {
      ui.closeAll();
      navigate('/');
    }
  }

  const items: MenuProps['items'] = [
    { key: 'refresh', label: t('tabs.refresh') },
    { key: 'close', label: t('tabs.close') },
    { key: 'closeOthers', label: t('tabs.closeOthers') },
    { key: 'closeAll', label: t('tabs.closeAll') },
  ];

  return (
    <div className={styles.tabs} data-testid="tab-strip" role="tablist">
      {views.map((view) => (
        <Dropdown
          key={view.path}
          trigger={['contextMenu']}
          open={menuFor?.path === view.path}
          onOpenChange={(open) => setMenuFor(open ? view : null)}
          menu={{
            items,
            onClick: ({ key }) => {
              setMenuFor(null);
              onMenu(view, key);
            },
          }}
        >
          <Tag
            role="tab"
            aria-selected={isActive(view)}
            data-testid="tab"
            data-path={view.path}
            color={isActive(view) ? 'processing' : undefined}
            closable
            onClose={(e) => {
              e.preventDefault();
              close(view);
            }}
            onClick={() => navigate(view.fullPath)}
            className={styles.tab}
          >
            {t(view.titleKey)}
          </Tag>
        </Dropdown>
      ))}
    </div>
  );
}
