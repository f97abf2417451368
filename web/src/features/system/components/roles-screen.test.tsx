import type { Resource } from '@kilowatch/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../../lib/i18n.ts';
import { useSession } from '../../../lib/session.ts';
import { mockApi, page, recordToasts, renderScreen } from '../../../testing/render-with-api.tsx';
import { RolesScreen } from './RolesScreen.tsx';

const res = (id: number, path: string, titleKey: string, parentPath: string | null): Resource => ({
  id,
  path,
  name: path,
  titleKey,
  parentPath,
  adminOnly: parentPath !== null || path !== '/home',
  sort: id,
});

const resources = [
  res(1, '/home', 'route.home', null),
  res(2, '/sys_management', 'route.sysManagement', null),
  res(3, '/sys_management/user', 'route.user', '/sys_management'),
  res(4, '/sys_management/role', 'route.role', '/sys_management'),
];

beforeEach(() => useSession.setState({ token: null, refreshToken: null }));
afterEach(() => vi.unstubAllGlobals());

const checkbox = (title: string) =>
  screen.getByText(title).closest('.ant-tree-treenode')!.querySelector('.ant-tree-checkbox') as HTMLElement;

describe('<RolesScreen>', { timeout: 20_000 }, () => {
  it('checking a parent in the grant tree sends it and all its children as resourcePaths', async () => {
    const calls = mockApi((c) => {
      if (c.method === 'GET' && c.path === '/api/roles') return { body: page([]) };
      if (c.method === 'GET' && c.path === '/api/resources') return { body: resources };
      if (c.method === 'POST' && c.path === '/api/roles') return { body: {} };
      return undefined;
    });
    const toasts = recordToasts();
    renderScreen(<RolesScreen />);
    fireEvent.click(await screen.findByTestId('crud-create'));
    const dialog = screen.getByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('角色编码'), { target: { value: 'sysop' } });
    fireEvent.change(within(dialog).getByLabelText('角色名称'), { target: { value: '系统运维' } });
    await within(dialog).findByText('用户管理');
    fireEvent.click(checkbox('系统管理'));
    fireEvent.click(checkbox('首页'));
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s?定/ }));

    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const body = calls.find((c) => c.method === 'POST')!.body as { resourcePaths: string[] };
    expect(body).toMatchObject({ code: 'sysop', name: '系统运维', description: '' });
    expect([...body.resourcePaths].sort()).toEqual(
      ['/home', '/sys_management', '/sys_management/role', '/sys_management/user'].sort(),
    );
    await waitFor(() => expect(toasts).toContainEqual({ kind: 'success', text: '创建成功' }));
  });

  it('validates the role code', async () => {
    mockApi((c) => {
      if (c.path === '/api/roles') return { body: page([]) };
      if (c.path === '/api/resources') return { body: resources };
      return undefined;
    });
    renderScreen(<RolesScreen />);
    fireEvent.click(await screen.findByTestId('crud-create'));
    const dialog = screen.getByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('角色编码'), { target: { value: 'Bad Code' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s?定/ }));
    expect(await within(dialog).findByText('以小写字母开头，2~32 位小写字母、数字、_ 或 -')).toBeTruthy();
  });
});
