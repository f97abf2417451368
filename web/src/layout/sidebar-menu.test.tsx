import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import '../lib/i18n.ts';
import { useSession } from '../lib/session.ts';
import { SidebarMenu } from './SidebarMenu.tsx';

afterEach(() => useSession.setState({ roles: [], routes: [] }));

describe('<SidebarMenu> with route grants', () => {
  it('shows 设备管理 › 设备节点 to an editor granted /device_management/nodes', () => {
    useSession.setState({ roles: ['editor'], routes: ['/device_management/nodes'] });
    render(
      <MemoryRouter initialEntries={['/device_management/nodes']}>
        <SidebarMenu collapsed={false} />
      </MemoryRouter>,
    );
    expect(screen.getByText('设备管理')).toBeTruthy();
    expect(screen.getByText('设备节点')).toBeTruthy();
    expect(screen.queryByText('设备类别')).toBeNull();
    expect(screen.queryByText('系统管理')).toBeNull();
  });

  it('hides the admin sets from an editor without grants', () => {
    useSession.setState({ roles: ['editor'], routes: [] });
    render(
      <MemoryRouter initialEntries={['/home']}>
        <SidebarMenu collapsed={false} />
      </MemoryRouter>,
    );
    expect(screen.queryByText('设备管理')).toBeNull();
    expect(screen.getByText('区域管理')).toBeTruthy();
  });

  it('names every entry in full on hover, for names longer than the sidebar', () => {
    useSession.setState({ roles: ['admin'], routes: [] });
    render(
      <MemoryRouter initialEntries={['/home']}>
        <SidebarMenu collapsed={false} />
      </MemoryRouter>,
    );
    expect(screen.getByText('设备管理').getAttribute('title')).toBe('设备管理');
  });
});
