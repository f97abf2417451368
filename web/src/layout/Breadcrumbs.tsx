import { Breadcrumb } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { routeTrail } from '../config/routes.ts';

export function Breadcrumbs() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const trail = routeTrail(pathname);
  const items = [
    { key: 'home', title: <Link to="/home">{t('route.home')}</Link> },
    ...trail.filter((r) => r.path !== '/home').map((r) => ({ key: r.path, title: t(r.titleKey) })),
  ];
  return <Breadcrumb items={items} data-testid="breadcrumb" />;
}
