import { App as AntApp, Drawer, Layout } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { findRoute } from '../config/routes.ts';
import { isMobileWidth, useUi } from '../lib/ui-store.ts';
import { DemoHistoryBanner } from './DemoHistoryBanner.tsx';
import styles from './layout.module.css';
import { Navbar } from './Navbar.tsx';
import { SidebarContent } from './Sidebar.tsx';
import { TabStrip } from './TabStrip.tsx';

// Wide enough for the longest group name with its arrow ("Gestión de dispositivos"), which ran under it at 210.
const SIDER_WIDTH = 240;
const SIDER_COLLAPSED_WIDTH = 64;

/** Spec §4: below 1024 px the console is "mobile": the sidebar becomes a drawer and closes. */
function useResponsiveSidebar() {
  const { pathname } = useLocation();
  useEffect(() => {
    const onResize = () => {
      const mobile = isMobileWidth(window.innerWidth);
      const ui = useUi.getState();
      if (mobile && ui.device !== 'mobile') {
        ui.setDevice('mobile');
        ui.closeSidebar();
      } else if (!mobile && ui.device !== 'desktop') ui.setDevice('desktop');
    };
    onResize();
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a route change is the trigger
  useEffect(() => {
    const ui = useUi.getState();
    if (ui.device === 'mobile' && ui.sidebarOpened) ui.closeSidebar();
  }, [pathname]);
}

export function MainLayout() {
  useResponsiveSidebar();
  const opened = useUi((s) => s.sidebarOpened);
  const device = useUi((s) => s.device);
  const { pathname } = useLocation();
  const refreshKey = useUi((s) => s.refreshKeys[pathname] ?? 0);
  const { t } = useTranslation();
  const route = findRoute(pathname);

  return (
    // antd's App gives the screens modal.confirm; it lives here, not in Providers, to stay out of
    // the login page's first load.
    <AntApp>
      <Layout className={styles.root}>
        {device === 'desktop' ? (
          <Layout.Sider
            width={SIDER_WIDTH}
            collapsedWidth={SIDER_COLLAPSED_WIDTH}
            collapsed={!opened}
            trigger={null}
            collapsible
            className={styles.sider}
            data-testid="sidebar"
          >
            <SidebarContent collapsed={!opened} />
          </Layout.Sider>
        ) : (
          <Drawer
            placement="left"
            open={opened}
            onClose={() => useUi.getState().closeSidebar()}
            size={SIDER_WIDTH}
            closable={false}
            styles={{ body: { padding: 0, background: '#001529' } }}
            data-testid="sidebar-drawer"
          >
            <SidebarContent collapsed={false} />
          </Drawer>
        )}
        <Layout>
          <Layout.Header className={styles.header}>
            <Navbar />
            <TabStrip />
          </Layout.Header>
          <Layout.Content className={styles.content}>
            <DemoHistoryBanner />
            {/* Every screen's level-one heading: the breadcrumb shows the title, this names the page. */}
            {route && <h1 className={styles.visuallyHidden}>{t(route.titleKey)}</h1>}
            <Outlet key={`${pathname}:${refreshKey}`} />
          </Layout.Content>
        </Layout>
      </Layout>
    </AntApp>
  );
}
