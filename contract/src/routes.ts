/**
 * The console's routes (spec §2), shared so the server can name the same resources that roles
 * grant. `adminOnly` routes are the extra set added after login for admins (spec §2, §6).
 * `titleKey` is the i18n key of the menu/tab/breadcrumb title.
 */
export interface RouteDef {
  path: string;
  name: string;
  titleKey: string;
  icon?: string;
  /** Hidden from the sidebar menu. */
  hidden?: boolean;
  /** Not kept as a tab. */
  noTab?: boolean;
  adminOnly?: boolean;
  children?: RouteDef[];
}

export const PUBLIC_PATHS = ['/login', '/auth-redirect', '/404', '/401'] as const;

export const LAYOUT_ROUTES: RouteDef[] = [
  { path: '/home', name: 'home', titleKey: 'route.home', icon: 'home' },
  { path: '/dashboard', name: 'dashboard', titleKey: 'route.dashboard', icon: 'dashboard' },
  {
    path: '/electricDiagram/index',
    name: 'electricDiagram',
    titleKey: 'route.electricDiagram',
    icon: 'diagram',
  },
  {
    path: '/home/chartdetail',
    name: 'chartdetail',
    titleKey: 'route.chartdetail',
    hidden: true,
    noTab: true,
  },
  { path: '/workshopBoard', name: 'workshopBoard', titleKey: 'route.workshopBoard', icon: 'board' },
  {
    path: '/energy_monitor',
    name: 'energy_monitor',
    titleKey: 'route.energyMonitor',
    icon: 'monitor',
    children: [
      { path: '/energy_monitor/fire', name: 'fire', titleKey: 'route.fire' },
      { path: '/energy_monitor/realtime', name: 'realtime', titleKey: 'route.realtime' },
      { path: '/energy_monitor/history', name: 'history', titleKey: 'route.history' },
      { path: '/energy_monitor/explore', name: 'explore', titleKey: 'route.explore' },
    ],
  },
  {
    path: '/analysis',
    name: 'analysis',
    titleKey: 'route.analysis',
    icon: 'analysis',
    children: [
      { path: '/analysis/report', name: 'report', titleKey: 'route.report' },
      { path: '/analysis/kpi', name: 'kpi', titleKey: 'route.kpi' },
      { path: '/analysis/tariff', name: 'tariff', titleKey: 'route.tariff' },
      { path: '/analysis/bill', name: 'bill', titleKey: 'route.bill' },
      { path: '/analysis/enpi', name: 'enpi', titleKey: 'route.enpi' },
    ],
  },
  {
    path: '/alarm_center',
    name: 'alarm_center',
    titleKey: 'route.alarmCenter',
    icon: 'alarm',
    children: [
      { path: '/alarm_center/alarm_history', name: 'alarm_history', titleKey: 'route.alarmHistory' },
      { path: '/alarm_center/alarm_rule', name: 'alarm_rule', titleKey: 'route.alarmRule' },
    ],
  },
  { path: '/video', name: 'video', titleKey: 'route.video', icon: 'video' },
  { path: '/region', name: 'region', titleKey: 'route.region', icon: 'region' },
  {
    path: '/device_management',
    name: 'device_management',
    titleKey: 'route.deviceManagement',
    icon: 'device',
    adminOnly: true,
    children: [
      { path: '/device_management/category', name: 'category', titleKey: 'route.category', adminOnly: true },
      { path: '/device_management/model', name: 'model', titleKey: 'route.model', adminOnly: true },
      { path: '/device_management/nodes', name: 'nodes', titleKey: 'route.nodes', adminOnly: true },
      {
        path: '/device_management/video',
        name: 'videoManagement',
        titleKey: 'route.videoManagement',
        adminOnly: true,
      },
    ],
  },
  {
    path: '/sys_management',
    name: 'sys_management',
    titleKey: 'route.sysManagement',
    icon: 'system',
    adminOnly: true,
    children: [
      { path: '/sys_management/user', name: 'user', titleKey: 'route.user', adminOnly: true },
      { path: '/sys_management/group', name: 'group', titleKey: 'route.group', adminOnly: true },
      { path: '/sys_management/role', name: 'role', titleKey: 'route.role', adminOnly: true },
      { path: '/sys_management/route', name: 'route', titleKey: 'route.resource', adminOnly: true },
    ],
  },
  { path: '/sys_config', name: 'sys_config', titleKey: 'route.sysConfig', icon: 'setting', adminOnly: true },
];

/** Every leaf route, in menu order. */
export const leafRoutes = (routes: RouteDef[] = LAYOUT_ROUTES): RouteDef[] =>
  routes.flatMap((r) => (r.children?.length ? leafRoutes(r.children) : [r]));
