import type { Binding, RegionNode, Thing } from '@kilowatch/contract';
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
import { RegionScreen } from './RegionScreen.tsx';

const node = (
  id: number,
  name: string,
  parentId: number | null,
  children: RegionNode[] = [],
): RegionNode => ({
  id,
  parentId,
  name,
  description: '',
  thingId: null,
  resourceType: 'region',
  dimensions: parentId ? [parentId] : [],
  level: parentId ? 2 : 1,
  sort: 0,
  isClick: true,
  children,
});

const tree = [node(1, '一号厂区', null, [node(2, '装配车间', 1)])];

const thing = (id: number, name: string): Thing => ({
  id,
  identifier: `t-${id}`,
  name,
  description: '',
  modelId: 1,
  modelName: 'M1',
  categoryId: 1,
  categoryName: '电表',
  setting: { attributes: [] },
  createdAt: '',
  updatedAt: '',
});

const bindings: Binding[] = [{ regionId: 1, regionName: '一号厂区', thing: thing(10, '总进线电表') }];

function api(
  regions: RegionNode[],
  extra: (c: FetchCall) => { body?: unknown } | undefined = () => undefined,
) {
  return mockApi((c) => {
    const answered = extra(c);
    if (answered) return answered;
    if (c.method === 'GET' && c.path === '/api/regions') return { body: regions };
    if (c.method === 'GET' && c.path === '/api/regions/1/bindings') return { body: bindings };
    if (c.method === 'GET' && c.path === '/api/thing/categories') return { body: page([]) };
    if (c.method === 'GET' && c.path === '/api/thing/things')
      return { body: page([thing(10, '总进线电表'), thing(11, '空压机电表')]) };
    return undefined;
  });
}

beforeEach(() => useSession.setState({ token: null, refreshToken: null, roles: ['admin'], routes: [] }));
afterEach(() => vi.unstubAllGlobals());

describe('<RegionScreen>', { timeout: 30_000 }, () => {
  it('an empty tree invites an editor to add the first region, which is created as a root', async () => {
    const calls = api([], (c) => (c.method === 'POST' ? { body: node(1, '一号厂区', null) } : undefined));
    const toasts = recordToasts();
    renderScreen(<RegionScreen />);
    expect(await screen.findByText('还没有区域，添加第一个吧')).toBeTruthy();
    expect(screen.getByText('请在左侧选择一个区域，查看其绑定的设备')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /添加第一个区域/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s?定/ }));
    expect(await within(dialog).findByText('请输入区域名称')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('区域名称'), { target: { value: ' 一号厂区 ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s?定/ }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      path: '/api/regions',
      body: { name: '一号厂区', description: '', parentId: null },
    });
    await waitFor(() => expect(toasts).toContainEqual({ kind: 'success', text: '创建成功' }));
  });

  it('a read-only user sees the tree and bindings without editing controls', async () => {
    useSession.setState({ roles: ['editor'], routes: ['/device_management/nodes'] });
    api(tree);
    renderScreen(<RegionScreen />, '/region?region=1');
    expect(await screen.findByText('装配车间')).toBeTruthy();
    expect(await screen.findByText('总进线电表')).toBeTruthy();
    expect(screen.queryByTestId('region-add-root')).toBeNull();
    expect(screen.queryByTestId('region-actions-1')).toBeNull();
    expect(screen.queryByTestId('bind-things')).toBeNull();
    expect(screen.queryByRole('button', { name: /解\s?绑/ })).toBeNull();
  });

  it('an editor granted /region binds devices from the picker', async () => {
    useSession.setState({ roles: ['editor'], routes: ['/region'] });
    const calls = api(tree, (c) => (c.method === 'POST' ? { body: null } : undefined));
    const toasts = recordToasts();
    renderScreen(<RegionScreen />);
    fireEvent.click(await screen.findByText('一号厂区'));
    fireEvent.click(await screen.findByTestId('bind-things'));
    const dialog = await screen.findByRole('dialog');
    const row = (await within(dialog).findByText('空压机电表')).closest('tr')!;
    // The device already bound here is checked and disabled.
    const bound = within(dialog).getByText('总进线电表').closest('tr')!;
    expect((bound.querySelector('input[type="checkbox"]') as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(row.querySelector('input[type="checkbox"]')!);
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s?定/ }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      path: '/api/regions/1/bindings',
      body: { thingIds: [11] },
    });
    await waitFor(() => expect(toasts).toContainEqual({ kind: 'success', text: '添加成功' }));
  });

  it('include sub-regions asks for successor=true', async () => {
    const calls = api(tree);
    renderScreen(<RegionScreen />, '/region?region=1');
    await screen.findByText('总进线电表');
    fireEvent.click(screen.getByTestId('bindings-successor'));
    await waitFor(() =>
      expect(
        calls.some((c) => c.path === '/api/regions/1/bindings' && c.query.get('successor') === 'true'),
      ).toBe(true),
    );
  });
});
