import { CloseOutlined, DownOutlined, LeftOutlined, RightOutlined } from '@ant-design/icons';
import { Button, Dropdown, type MenuProps } from 'antd';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { findRoute } from '../config/routes.ts';
import { nextPathAfterClosing, useUi, type VisitedView } from '../lib/ui-store.ts';
import styles from './layout.module.css';

/**
 * Visited views as tabs; right-click offers refresh, close, close others, close all (spec §2).
 * When they overflow, the active tab is scrolled into view, arrows scroll the strip and a menu
 * lists every open view.
 */
export function TabStrip() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const views = useUi((s) => s.visitedViews);
  const [menuFor, setMenuFor] = useState<VisitedView | null>(null);
  const strip = useRef<HTMLDivElement>(null);
  const [overflow, setOverflow] = useState({ left: false, right: false });

  const measure = useCallback(() => {
    const el = strip.current;
    if (!el) return;
    const left = el.scrollLeft > 1;
    const right = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
    setOverflow((o) => (o.left === left && o.right === right ? o : { left, right }));
  }, []);

  const reveal = useCallback(() => {
    const active = strip.current?.querySelector<HTMLElement>('[aria-current="page"]');
    active?.parentElement?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, []);

  // A narrower strip (a smaller window, or the arrows appearing once the tabs overflow) can push
  // the active tab out of view: it is brought back whenever the strip changes size.
  useEffect(() => {
    const el = strip.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      reveal();
      measure();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [measure, reveal]);

  // The active tab comes into view whenever the view or the set of tabs changes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: views.length stands for the tabs' layout
  useLayoutEffect(() => {
    reveal();
    measure();
  }, [location.pathname, views.length, measure, reveal]);

  const scrollBy = (direction: 1 | -1) => {
    const el = strip.current;
    el?.scrollBy?.({ left: direction * el.clientWidth * 0.8, behavior: 'smooth' });
  };

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
    <nav className={styles.tabBar} data-testid="tab-strip" aria-label={t('tabs.label')}>
      {overflow.left && (
        <Button
          type="text"
          size="small"
          icon={<LeftOutlined />}
          aria-label={t('tabs.scrollLeft')}
          onClick={() => scrollBy(-1)}
        />
      )}
      <div className={styles.tabs} ref={strip} onScroll={measure}>
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
      </div>
      {overflow.right && (
        <Button
          type="text"
          size="small"
          icon={<RightOutlined />}
          aria-label={t('tabs.scrollRight')}
          onClick={() => scrollBy(1)}
        />
      )}
      {views.length > 1 && (
        <Dropdown
          trigger={['click']}
          menu={{
            items: views.map((v) => ({ key: v.path, label: t(v.titleKey) })),
            selectable: true,
            selectedKeys: [location.pathname],
            onClick: ({ key }) => {
              const view = views.find((v) => v.path === key);
              if (view) navigate(view.fullPath);
            },
          }}
        >
          <Button
            type="text"
            size="small"
            icon={<DownOutlined />}
            aria-label={t('tabs.all')}
            data-testid="tab-all"
          />
        </Dropdown>
      )}
    </nav>
  );
}
