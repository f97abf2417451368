import type { Category, EffectiveAbility, Model } from '@kilowatch/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { overridePatch } from './components/ModelAbilitiesDrawer.tsx';
import { ModelPage } from './components/ModelPage.tsx';
import { clickButton, mockApi, page, renderScreen, reply } from './test-utils.tsx';

const model: Model = {
  id: 3,
  categoryId: 2,
  categoryName: '水泵',
  name: 'SA-37',
  description: '37 kW',
  thingCount: 4,
  createdAt: '',
  updatedAt: '',
};
const category: Category = {
  id: 2,
  name: '水泵',
  description: '',
  abilityCount: 1,
  modelCount: 1,
  createdAt: '',
  updatedAt: '',
};
const ability: EffectiveAbility = {
  abilityId: 11,
  categoryId: 2,
  identifier: 'power',
  name: '功率',
  unit: 'kW',
  dataType: 'number',
  aggregator: 'avg',
  cumulative: false,
  enumOptions: [],
  sort: 0,
  overridden: false,
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('models screen', () => {
  it('filters by the category in the address', async () => {
    const calls = mockApi({
      'GET /api/thing/models': () => page([model]),
      'GET /api/thing/categories': () => page([category]),
    });
    renderScreen(<ModelPage />, '/device_management/model?categoryId=2');
    expect(await screen.findByText('SA-37')).toBeTruthy();
    const list = calls.find((c) => c.path === '/api/thing/models' && c.query.get('pageSize') !== '1000')!;
    expect(list.query.get('categoryId')).toBe('2');
  });

  it('shows the server message naming the things when a delete is refused', async () => {
    mockApi({
      'GET /api/thing/models': () => page([model]),
      'GET /api/thing/categories': () => page([category]),
      'DELETE /api/thing/models/3': () =>
        reply(409, { code: 'CONFLICT', message: '型号 SA-37 仍被设备使用：1号冷却泵、2号冷却泵' }),
    });
    renderScreen(<ModelPage />, '/device_management/model');
    await screen.findByText('SA-37');
    fireEvent.click(screen.getByRole('button', { name: /删\s*除/ }));
    const confirm = await screen.findByText(/确定删除“SA-37”吗/);
    const modal = confirm.closest('.ant-modal') as HTMLElement;
    clickButton(modal, '删除');
    // The dialog stays open with the server's reason inside (the http layer's toast says it too).
    expect((await within(modal).findByTestId('confirm-delete-error')).textContent).toContain(
      '型号 SA-37 仍被设备使用：1号冷却泵、2号冷却泵',
    );
  });

  it('resets an overridden ability after confirmation', async () => {
    const calls = mockApi({
      'GET /api/thing/models': () => page([model]),
      'GET /api/thing/categories': () => page([category]),
      'GET /api/thing/models/3/abilities': () => [{ ...ability, name: '轴功率', overridden: true }],
      'PATCH /api/thing/models/abilities/11': () => ability,
    });
    renderScreen(<ModelPage />, '/device_management/model');
    await screen.findByText('SA-37');
    fireEvent.click(screen.getByRole('button', { name: /能\s*力/ }));
    expect(await screen.findByText('已覆盖')).toBeTruthy();
    const drawer = screen.getByText('轴功率').closest('.ant-drawer') as HTMLElement;
    clickButton(drawer, '恢复默认');
    const confirm = await screen.findByText(/恢复为类别的定义/);
    clickButton(confirm.closest('.ant-modal') as HTMLElement, '确定');
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ modelId: 3, reset: true });
    expect(await screen.findByText('操作成功')).toBeTruthy();
  });

  it('sends only the changed fields as overrides', () => {
    expect(
      overridePatch(3, ability, { name: '功率', unit: 'W', aggregator: 'avg', cumulative: false, sort: 0 }),
    ).toEqual({ modelId: 3, unit: 'W' });
    expect(
      overridePatch(3, ability, {
        name: ' 轴功率 ',
        unit: 'kW',
        aggregator: 'max',
        cumulative: true,
        sort: 2,
      }),
    ).toEqual({ modelId: 3, name: '轴功率', aggregator: 'max', cumulative: true, sort: 2 });
  });
});
