import { CloseOutlined } from '@ant-design/icons';
import { Dropdown, type MenuProps } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { findRoute } from '../config/routes.ts';
import { nextPathAfterClosing, useUi, type VisitedView } from '../lib/ui-store.ts';
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

  // A row of links with their own close buttons (not antd's closable Tag, a tab with a button
  // inside it): each control is reachable and named on its own; the current view is aria-current.
  return (
    <nav className={styles.tabs} data-testid="tab-strip" aria-label={t('tabs.label')}>
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
          <span
            data-testid="tab"
            data-path={view.path}
            className={`${styles.tab} ${isActive(view) ? styles.tabActive : ''}`}
          >
            <a
              href={`#${view.fullPath}`}
              aria-current={isActive(view) ? 'page' : undefined}
              onClick={(e) => {
                e.preventDefault();
                navigate(view.fullPath);
              }}
            >
              {t(view.titleKey)}
            </a>
            <button
              type="button"
              className={styles.tabClose}
              aria-label={t('tabs.closeNamed', { name: t(view.titleKey) })}
              onClick={() => close(view)}
            >
              <CloseOutlined />
            </button>
          </span>
        </Dropdown>
      ))}
    </nav>
  );
}
