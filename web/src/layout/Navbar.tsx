import {
  DownOutlined,
  HomeOutlined,
  LockOutlined,
  LogoutOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Avatar, Button, Dropdown, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { logout } from '../api/auth.ts';
import { LanguageSwitch } from '../components/LanguageSwitch.tsx';
import { useSession } from '../lib/session.ts';
import { useUi } from '../lib/ui-store.ts';
import { AlarmBell } from './AlarmBell.tsx';
import { Breadcrumbs } from './Breadcrumbs.tsx';
import { ErrorLogButton } from './ErrorLogButton.tsx';
import { FullscreenToggle } from './FullscreenToggle.tsx';
import styles from './layout.module.css';
import { PasswordChangeDialog } from './PasswordChangeDialog.tsx';
import { SizeSelect } from './SizeSelect.tsx';

export function Navbar() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const opened = useUi((s) => s.sidebarOpened);
  const device = useUi((s) => s.device);
  const user = useSession((s) => s.user);
  const [changingPassword, setChangingPassword] = useState(false);

  async function onLogout() {
    await logout();
    navigate(`/login?redirect=${encodeURIComponent('/')}`);
  }

  return (
    <div className={styles.navbar}>
      <Button
        type="text"
        aria-label={t('navbar.toggleSidebar')}
        data-testid="sidebar-toggle"
        icon={opened && device === 'desktop' ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
        onClick={() => useUi.getState().toggleSidebar()}
      />
      <div className={styles.breadcrumb}>
        <Breadcrumbs />
      </div>
      <Space size={2} className={styles.actions}>
        <AlarmBell />
        <ErrorLogButton />
        {device === 'desktop' && <FullscreenToggle />}
        <SizeSelect />
        <LanguageSwitch />
        <Dropdown
          trigger={['click']}
          menu={{
            items: [
              {
                key: 'home',
                icon: <HomeOutlined />,
                label: t('navbar.home'),
                onClick: () => navigate('/home'),
              },
              {
                key: 'password',
                icon: <LockOutlined />,
                label: t('passwordChange.menu'),
                onClick: () => setChangingPassword(true),
              },
              { type: 'divider' },
              {
                key: 'logout',
                icon: <LogoutOutlined />,
                label: t('navbar.logout'),
                onClick: () => void onLogout(),
              },
            ],
          }}
        >
          <Button type="text" data-testid="user-menu" className={styles.user}>
            <Avatar size="small" src={user?.avatar || undefined} icon={<UserOutlined />} />
            {device === 'desktop' && <span>{user?.name || user?.username}</span>}
            <DownOutlined />
          </Button>
        </Dropdown>
      </Space>
      <PasswordChangeDialog open={changingPassword} onClose={() => setChangingPassword(false)} />
    </div>
  );
}
