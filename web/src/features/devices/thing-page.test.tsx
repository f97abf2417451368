import type { Model, Thing } from '@kilowatch/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { importFileProblem } from './components/ThingImportModal.tsx';
import { ThingPage, toThingInput } from './components/ThingPage.tsx';
import { clickButton, mockApi, page, renderScreen, reply } from './test-utils.tsx';

const thing: Thing = {
  id: 7,
  identifier: 'pump-01',
  name: '1号冷却泵',
  description: '',
  modelId: 3,
  modelName: 'SA-37',
  categoryId: 2,
  categoryName: '水泵',
  setting: { attributes: [{ identifier: 'ratedPower', name: '额定功率', value: '37kW' }] },
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
};

const model: Model = {
  id: 3,
  categoryId: 2,
  categoryName: '水泵',
  name: 'SA-37',
  description: '',
  thingCount: 1,
  createdAt: '',
  updatedAt: '',
};

const baseRoutes = {
  'GET /api/thing/things': () => page([thing]),
  'GET /api/thing/categories': () => page([]),
  'GET /api/thing/models': () => page([model]),
};

afterEach(() => {
  vi.unstubAllGlobals();
});

const modalOf = async (title: string) =>
  (await screen.findByText(title, { selector: '.ant-modal-title' })).closest('.ant-modal') as HTMLElement;

describe('things screen', () => {
  it('sends the category and model filters from the address', async () => {
    const calls = mockApi(baseRoutes);
    renderScreen(<ThingPage />, '/device_management/nodes?categoryId=2&modelId=3&page=1');
    await screen.findByText('1号冷却泵');
    const list = calls.find((c) => c.path === '/api/thing/things')!;
    expect(list.query.get('categoryId')).toBe('2');
    expect(list.query.get('modelId')).toBe('3');
  });

  it('opens the edit dialog with the thing and its attributes, and puts the edited thing', async () => {
    const calls = mockApi({
      ...baseRoutes,
      'PUT /api/thing/things/7': (call) => ({ ...thing, ...(call.body as object) }),
    });
    renderScreen(<ThingPage />, '/device_management/nodes');
    await screen.findByText('1号冷却泵');
    fireEvent.click(screen.getByRole('button', { name: /编\s*辑/ }));
    const dialog = await modalOf('编辑');
    await waitFor(() =>
      expect((within(dialog).getByLabelText('设备名称') as HTMLInputElement).value).toBe('1号冷却泵'),
    );
    expect((within(dialog).getByPlaceholderText('属性值') as HTMLInputElement).value).toBe('37kW');
    fireEvent.change(within(dialog).getByLabelText('设备名称'), { target: { value: '1号冷却水泵' } });
    clickButton(dialog, '确定');
    expect(await screen.findByText('修改成功')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      identifier: 'pump-01',
      name: '1号冷却水泵',
      modelId: 3,
      description: '',
      setting: { attributes: [{ identifier: 'ratedPower', name: '额定功率', value: '37kW' }] },
    });
  });

  it('lists the rows of a refused import and says nothing was imported', async () => {
    const calls = mockApi({
      ...baseRoutes,
      'POST /api/thing/things/import': () =>
        reply(422, {
          code: 'UNPROCESSABLE',
          message: '导入文件有 2 处错误',
          errors: [
            { row: 3, column: 'identifier', message: '标识符 pump-01 已存在' },
            { row: 5, column: 'model', message: '型号 XX 不存在' },
          ],
        }),
    });
    renderScreen(<ThingPage />, '/device_management/nodes');
    await screen.findByText('1号冷却泵');
    fireEvent.click(screen.getByRole('button', { name: /导\s*入/ }));
    const dialog = await modalOf('批量导入设备');
    const input = dialog.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, {
      target: { files: [new File(['identifier,name\n'], 'things.csv', { type: 'text/csv' })] },
    });
    await within(dialog).findByText('things.csv');
    fireEvent.click(within(dialog).getByTestId('import-start'));

    const errors = await within(dialog).findByTestId('import-errors');
    expect(within(errors).getByText('导入失败，没有导入任何数据。请修正以下行后重新上传。')).toBeTruthy();
    expect(within(errors).getByText('标识符 pump-01 已存在')).toBeTruthy();
    expect(within(errors).getByText('型号 XX 不存在')).toBeTruthy();
    expect(within(errors).getByText('5')).toBeTruthy();
    const upload = calls.find((c) => c.path === '/api/thing/things/import')!;
    expect(upload.body).toBeInstanceOf(FormData);
    expect(((upload.body as FormData).get('file') as File).name).toBe('things.csv');
  });

  it('imports a file, says 添加成功 with the count and refreshes the list', async () => {
    const calls = mockApi({ ...baseRoutes, 'POST /api/thing/things/import': () => ({ created: 12 }) });
    renderScreen(<ThingPage />, '/device_management/nodes');
    await screen.findByText('1号冷却泵');
    fireEvent.click(screen.getByRole('button', { name: /导\s*入/ }));
    const dialog = await modalOf('批量导入设备');
    const input = dialog.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'], 'things.xlsx')] } });
    await within(dialog).findByText('things.xlsx');
    const listCalls = calls.filter((c) => c.path === '/api/thing/things').length;
    fireEvent.click(within(dialog).getByTestId('import-start'));
    expect(await screen.findByText('添加成功，共导入 12 个设备')).toBeTruthy();
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/api/thing/things').length).toBeGreaterThan(listCalls),
    );
  });

  it('refuses files that are too big or of another type before sending', () => {
    expect(importFileProblem({ name: 'a.csv', size: 5 * 1024 * 1024 })).toBeNull();
    expect(importFileProblem({ name: 'a.CSV', size: 10 })).toBeNull();
    expect(importFileProblem({ name: 'a.xlsx', size: 5 * 1024 * 1024 + 1 })).toBe('tooLarge');
    expect(importFileProblem({ name: 'a.xls', size: 10 })).toBe('badType');
  });

  it('says a too-big file is refused and does not upload it', async () => {
    const calls = mockApi(baseRoutes);
    renderScreen(<ThingPage />, '/device_management/nodes');
    await screen.findByText('1号冷却泵');
    fireEvent.click(screen.getByRole('button', { name: /导\s*入/ }));
    const dialog = await modalOf('批量导入设备');
    const big = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'big.csv');
    fireEvent.change(dialog.querySelector('input[type="file"]') as HTMLInputElement, {
      target: { files: [big] },
    });
    expect(await screen.findByText('文件超过 5 MB，请拆分后再导入')).toBeTruthy();
    expect((within(dialog).getByTestId('import-start') as HTMLButtonElement).disabled).toBe(true);
    expect(calls.some((c) => c.path === '/api/thing/things/import')).toBe(false);
  });

  it('masks the access token until revealed and regenerates it after a warning', async () => {
    const calls = mockApi({
      ...baseRoutes,
      'GET /api/thing/things/7/token': () => ({ thingId: 7, accessToken: 'tok-old-123' }),
      'POST /api/thing/things/7/token': () => ({ thingId: 7, accessToken: 'tok-new-456' }),
    });
    renderScreen(<ThingPage />, '/device_management/nodes');
    await screen.findByText('1号冷却泵');
    fireEvent.click(screen.getByRole('button', { name: /接入令牌/ }));
    const dialog = await modalOf('接入令牌：1号冷却泵');
    const token = await within(dialog).findByTestId('thing-token');
    await waitFor(() => expect(token.textContent).toContain('•'));
    expect(dialog.textContent).not.toContain('tok-old-123');
    clickButton(dialog, '显示');
    await waitFor(() =>
      expect(within(dialog).getByTestId('thing-token').textContent).toContain('tok-old-123'),
    );

    clickButton(dialog, '重新生成');
    const warning = await screen.findByText(/旧令牌将立即失效/);
    clickButton(warning.closest('.ant-modal') as HTMLElement, '重新生成');
    await waitFor(() =>
      expect(within(dialog).getByTestId('thing-token').textContent).toContain('tok-new-456'),
    );
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/thing/things/7/token')).toBe(true);
  });

  it('removes an ability from a thing after confirmation with ids in the query', async () => {
    const calls = mockApi({
      ...baseRoutes,
      'GET /api/thing/things/7/abilities': () => [
        {
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
          overridden: true,
        },
      ],
      'DELETE /api/thing/things/7/abilities': () => reply(204, null),
    });
    renderScreen(<ThingPage />, '/device_management/nodes');
    await screen.findByText('1号冷却泵');
    fireEvent.click(screen.getByRole('button', { name: /能\s*力/ }));
    expect(await screen.findByText('已覆盖')).toBeTruthy();
    const drawer = screen.getByText('功率').closest('.ant-drawer') as HTMLElement;
    clickButton(drawer, '移除');
    const confirm = await screen.findByText('确定从设备“1号冷却泵”移除能力“功率”吗？');
    clickButton(confirm.closest('.ant-modal') as HTMLElement, '移除');
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true));
    expect(calls.find((c) => c.method === 'DELETE')?.query.get('ids')).toBe('11');
  });

  it('turns form values into the contract input', () => {
    expect(
      toThingInput({
        identifier: ' m-1 ',
        name: ' 电机 ',
        modelId: 3,
        attributes: [{ identifier: 'loc', name: '位置', value: ' A区 ' }],
      }),
    ).toEqual({
      identifier: 'm-1',
      name: '电机',
      modelId: 3,
      description: '',
      setting: { attributes: [{ identifier: 'loc', name: '位置', value: 'A区' }] },
    });
  });
});
