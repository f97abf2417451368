import type { Category, CategoryAbility, Unit } from '@kilowatch/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CategoryPage } from './components/CategoryPage.tsx';
import { clickButton, mockApi, page, renderScreen, reply } from './test-utils.tsx';

const category = (id: number, name: string): Category => ({
  id,
  name,
  description: `${name} 描述`,
  abilityCount: 2,
  modelCount: 1,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-02T03:04:05Z',
});

const units: Unit[] = [{ id: 1, symbol: 'kW', name: '千瓦', quantity: 'power' }];

/** Opens the 能力 drawer of the only row, then its 新增能力 dialog. */
async function openAbilityDialog(): Promise<HTMLElement> {
  fireEvent.click(screen.getByRole('button', { name: /能\s*力/ }));
  const add = (await screen.findByRole('button', { name: /新增能力/ })) as HTMLButtonElement;
  await waitFor(() => expect(add.disabled).toBe(false));
  fireEvent.click(add);
  return (await screen.findByText('新增能力', { selector: '.ant-modal-title' })).closest(
    '.ant-modal',
  ) as HTMLElement;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('category screen', () => {
  it('lists the categories of the page and keeps paging in the address and the query', async () => {
    const calls = mockApi({
      'GET /api/thing/categories': (call) =>
        page([category(21, '空压机'), category(22, '水泵')], 45, Number(call.query.get('page')), 20),
    });
    renderScreen(<CategoryPage />, '/device_management/category?page=2&pageSize=20');

    expect(await screen.findByText('空压机')).toBeTruthy();
    expect(screen.getByText('水泵')).toBeTruthy();
    const first = calls.find((c) => c.path === '/api/thing/categories')!;
    expect(first.query.get('page')).toBe('2');
    expect(first.query.get('pageSize')).toBe('20');

    fireEvent.click(screen.getByTitle('3'));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toContain('page=3'));
    await waitFor(() =>
      expect(calls.some((c) => c.path === '/api/thing/categories' && c.query.get('page') === '3')).toBe(true),
    );
  });

  it('creates a category with the typed body and says 创建成功', async () => {
    const calls = mockApi({
      'GET /api/thing/categories': () => page([]),
      'POST /api/thing/categories': (call) => ({ ...category(1, 'x'), ...(call.body as object) }),
    });
    renderScreen(<CategoryPage />, '/device_management/category');
    fireEvent.click(await screen.findByTestId('crud-create'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('类别名称'), { target: { value: '  冷却塔 ' } });
    fireEvent.change(within(dialog).getByLabelText('描述'), { target: { value: '循环水' } });
    clickButton(dialog, '确定');

    expect(await screen.findByText('创建成功')).toBeTruthy();
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.body).toEqual({ name: '冷却塔', description: '循环水' });
  });

  it('keeps the dialog when a name is missing and says what is wrong', async () => {
    const calls = mockApi({ 'GET /api/thing/categories': () => page([]) });
    renderScreen(<CategoryPage />, '/device_management/category');
    fireEvent.click(await screen.findByTestId('crud-create'));
    const dialog = await screen.findByRole('dialog');
    clickButton(dialog, '确定');
    expect(await within(dialog).findByText('请输入名称')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('shows the server message when a delete is refused with 409', async () => {
    mockApi({
      'GET /api/thing/categories': () => page([category(5, '空压机')]),
      'DELETE /api/thing/categories/:id': () =>
        reply(409, { code: 'CONFLICT', message: '类别“空压机”下还有型号：SA-37，不能删除' }),
    });
    renderScreen(<CategoryPage />, '/device_management/category');
    await screen.findByText('空压机');
    fireEvent.click(screen.getByRole('button', { name: /删\s*除/ }));
    const confirm = await screen.findByText(/确定删除“空压机”吗/);
    const modal = confirm.closest('.ant-modal') as HTMLElement;
    fireEvent.click(within(modal).getByRole('button', { name: /删\s*除/ }));
    // The dialog stays open with the server's reason inside (the http layer's toast says it too).
    expect((await within(modal).findByTestId('confirm-delete-error')).textContent).toContain(
      '类别“空压机”下还有型号：SA-37，不能删除',
    );
  });

  it('rejects an ability identifier that breaks the contract rule, in Chinese', async () => {
    localStorage.setItem('unitAll', JSON.stringify(units));
    const calls = mockApi({
      'GET /api/thing/categories': () => page([category(5, '空压机')]),
      'GET /api/thing/categories/5/abilities': () => [] as CategoryAbility[],
      'GET /api/units': () => page(units),
    });
    renderScreen(<CategoryPage />, '/device_management/category');
    await screen.findByText('空压机');
    const dialog = await openAbilityDialog();
    fireEvent.change(within(dialog).getByLabelText('标识符'), { target: { value: '1-power' } });
    fireEvent.change(within(dialog).getByLabelText('名称'), { target: { value: '功率' } });
    clickButton(dialog, '确定');
    expect(
      await within(dialog).findByText(
        '标识符须以英文字母开头，只能包含英文字母、数字和 _ . : -，最多 64 个字符',
      ),
    ).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('posts a valid ability and marks a 409 on the identifier field', async () => {
    const calls = mockApi({
      'GET /api/thing/categories': () => page([category(5, '空压机')]),
      'GET /api/thing/categories/5/abilities': () => [] as CategoryAbility[],
      'GET /api/units': () => page(units),
      'POST /api/thing/categories/5/abilities': () =>
        reply(409, { code: 'CONFLICT', message: '标识符 power 已存在' }),
    });
    renderScreen(<CategoryPage />, '/device_management/category');
    await screen.findByText('空压机');
    const dialog = await openAbilityDialog();
    fireEvent.change(within(dialog).getByLabelText('标识符'), { target: { value: 'power' } });
    fireEvent.change(within(dialog).getByLabelText('名称'), { target: { value: '功率' } });
    clickButton(dialog, '确定');

    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      identifier: 'power',
      name: '功率',
      unit: '',
      dataType: 'number',
      aggregator: 'avg',
      cumulative: false,
      enumOptions: [],
      sort: 0,
    });
    // Shown by the http module as a toast and next to the field; the dialog stays open.
    await waitFor(() => expect(screen.getAllByText('标识符 power 已存在').length).toBeGreaterThanOrEqual(2));
    expect((within(dialog).getByLabelText('名称') as HTMLInputElement).value).toBe('功率');
  });
});
