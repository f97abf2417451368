import type { Group, Role, User } from '@kilowatch/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../../lib/i18n.ts';
import { useSession } from '../../../lib/session.ts';
import {
  type FetchCall,
  mockApi,
  page,
  recordToasts,
  renderScreen,
} from '../../../testing/render-with-api.tsx';
import { UsersScreen } from './UsersScreen.tsx';

const role: Role = {
  id: 3,
  code: 'energy',
  name: '能源经理',
  description: '',
  resourcePaths: [],
  userCount: 0,
  createdAt: '',
};
const group: Group = { id: 5, name: '一车间', description: '', userCount: 1, createdAt: '' };
const admin: User = {
  id: 1,
  username: 'admin',
  name: '管理员甲',
  avatar: '',
  introduction: '',
  userLevel: 1,
  disabled: false,
  roleIds: [3],
  groupIds: [5],
  createdAt: '',
  updatedAt: '',
};

function api(extra: (c: FetchCall) => { status?: number; body?: unknown } | undefined = () => undefined) {
  return mockApi((c) => {
    const answered = extra(c);
    if (answered) return answered;
    if (c.method === 'GET' && c.path === '/api/users') return { body: page([admin]) };
    if (c.method === 'GET' && c.path === '/api/roles') return { body: page([role]) };
    if (c.method === 'GET' && c.path === '/api/groups') return { body: page([group]) };
    return undefined;
  });
}

const dialog = () => screen.getByRole('dialog');
const ok = () => within(dialog()).getByRole('button', { name: /确\s?定/ });

beforeEach(() => useSession.setState({ token: null, refreshToken: null }));
afterEach(() => vi.unstubAllGlobals());

describe('<UsersScreen>', { timeout: 20_000 }, () => {
  it('lists users with their level, roles and groups by name', async () => {
    api();
    renderScreen(<UsersScreen />);
    expect(await screen.findByText('管理员甲')).toBeTruthy();
    expect(screen.getByText('管理员')).toBeTruthy();
    expect(await screen.findByText('能源经理')).toBeTruthy();
    expect(await screen.findByText('一车间')).toBeTruthy();
  });

  it('validates the password rule, then creates the user with the right body', async () => {
    const calls = api((c) => (c.method === 'POST' && c.path === '/api/users' ? { body: admin } : undefined));
    const toasts = recordToasts();
    renderScreen(<UsersScreen />);
    await screen.findByText('管理员甲');
    fireEvent.click(screen.getByTestId('crud-create'));

    fireEvent.change(within(dialog()).getByLabelText('用户名'), { target: { value: 'alice' } });
    fireEvent.change(within(dialog()).getByLabelText('密码'), { target: { value: 'abc' } });
    fireEvent.change(within(dialog()).getByLabelText('姓名'), { target: { value: 'Alice' } });
    fireEvent.click(ok());
    expect(await within(dialog()).findByText('请输入6~20位英文字符')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.change(within(dialog()).getByLabelText('密码'), { target: { value: 'Secret#123' } });
    // Pick the role in the multi-select.
    fireEvent.mouseDown(within(dialog()).getByLabelText('角色'));
    fireEvent.click(await screen.findByTitle('能源经理'));
    fireEvent.click(ok());

    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({
      username: 'alice',
      password: 'Secret#123',
      name: 'Alice',
      userLevel: 2,
      roleIds: [3],
      groupIds: [],
    });
    await waitFor(() => expect(toasts).toContainEqual({ kind: 'success', text: '创建成功' }));
  });

  it("shows the server's refusal to delete the last admin", async () => {
    api((c) =>
      c.method === 'DELETE'
        ? { status: 409, body: { code: 'CONFLICT', message: '不能删除最后一个管理员' } }
        : undefined,
    );
    const toasts = recordToasts();
    renderScreen(<UsersScreen />);
    await screen.findByText('管理员甲');
    fireEvent.click(screen.getByRole('button', { name: /删\s?除/ }));
    const confirm = await screen.findByRole('dialog');
    expect(within(confirm).getByText(/确定删除“admin”吗/)).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: /删\s?除/ }));
    await waitFor(() => expect(toasts).toContainEqual({ kind: 'error', text: '不能删除最后一个管理员' }));
  });
});
