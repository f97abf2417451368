import { useTranslation } from 'react-i18next';
import { useStartupLogo } from '../api/system.ts';
import { DEFAULT_LOGO_SRC } from '../lib/logo.ts';
import { useSession } from '../lib/session.ts';
import styles from './layout.module.css';
import { SidebarMenu } from './SidebarMenu.tsx';

/** Logo (when the system setting shows one), the menu, and the copyright footer when expanded. */
export function SidebarContent({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation();
  useStartupLogo();
  const logo = useSession((s) => s.logo);
  return (
    <div className={styles.sidebar}>
      {logo.show && (
        <div className={styles.logo} data-testid="sidebar-logo">
          <img src={logo.img || DEFAULT_LOGO_SRC} alt="" />
          {!collapsed && <span>{t('app.name')}</span>}
        </div>
      )}
      <div className={styles.menu}>
        <SidebarMenu collapsed={collapsed} />
      </div>
      {!collapsed && (
        <div className={styles.copyright} data-testid="sidebar-copyright">
          {t('app.copyright', { year: new Date().getFullYear() })}
        </div>
      )}
    </div>
  );
}
