import { Menu, type MenuProps } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { type ConsoleRoute, menuFor, routeTrail } from '../config/routes.ts';
import { canAccessRoute, useSession } from '../lib/session.ts';
import { MENU_ICONS } from './menu-icons.tsx';

type Item = Required<MenuProps>['items'][number];

export function SidebarMenu({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const roles = useSession((s) => s.roles);
  const grants = useSession((s) => s.routes);

  const items = useMemo(() => {
    // A name longer than the sidebar (English "Device management") is cut with an ellipsis:
    // the whole name shows on hover.
    const label = (r: ConsoleRoute) => <span title={t(r.titleKey)}>{t(r.titleKey)}</span>;
    const toItem = (r: ConsoleRoute): Item =>
      r.children
        ? {
            key: r.path,
            icon: r.icon && MENU_ICONS[r.icon],
            label: label(r),
            children: r.children.map(toItem),
          }
        : { key: r.path, icon: r.icon && MENU_ICONS[r.icon], label: label(r) };
    return menuFor((_, route) => canAccessRoute(roles, grants, route)).map(toItem);
  }, [roles, grants, t]);

  const open = routeTrail(pathname)
    .slice(0, -1)
    .map((r) => r.path);
  return (
    <Menu
      mode="inline"
      theme="dark"
      items={items}
      selectedKeys={[pathname]}
      defaultOpenKeys={collapsed ? [] : open}
      onClick={({ key }) => navigate(key)}
      data-testid="sidebar-menu"
    />
  );
}
