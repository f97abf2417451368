import type { ErpConfig } from '@kilowatch/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../../lib/i18n.ts';
import { useSession } from '../../../lib/session.ts';
import { mockApi, recordToasts, renderScreen } from '../../../testing/render-with-api.tsx';
import { fromErpForm, repeatedIdentifiers, toErpForm } from '../lib/erp-form.ts';
import { ErpConfigForm } from './ErpConfigForm.tsx';

const saved: ErpConfig = {
  columns: [
    { field: 'code', header: 'ERP编码' },
    { field: 'cost', header: '金额' },
  ],
  price: 0.5,
  currency: 'CNY',
  sheetName: 'ERP',
  codes: { 'TR-01': 'CC-1' },
  tariffId: null,
};

beforeEach(() => useSession.setState({ token: null, refreshToken: null, roles: ['admin'], routes: [] }));
afterEach(() => vi.unstubAllGlobals());

describe('the ERP form', { timeout: 30_000 }, () => {
  it('turns records into rows and back', () => {
    const config = { ...saved, tariffs: { 'AC-01': 3 } };
    expect(fromErpForm(toErpForm(config))).toEqual(config);
    expect(repeatedIdentifiers([{ identifier: 'A' }, { identifier: 'B' }, { identifier: ' A ' }])).toEqual(
      new Set([2]),
    );
  });

  it('refuses an empty or forbidden sheet name with the message and saves nothing', async () => {
    const calls = mockApi((c) => {
      if (c.path === '/api/sysconfigs/erp' && c.method === 'GET') return { body: saved };
      if (c.path === '/api/tariffs') return { body: [] };
      return undefined;
    });
    renderScreen(<ErpConfigForm />);
    const sheet = await screen.findByLabelText('工作表名称');
    await waitFor(() => expect((sheet as HTMLInputElement).value).toBe('ERP'));
    fireEvent.change(sheet, { target: { value: 'a:b' } });
    fireEvent.click(screen.getByTestId('erp-save'));
    expect(await screen.findByText('工作表名称不能包含 [ ] : * ? / \\')).toBeTruthy();
    fireEvent.change(sheet, { target: { value: ' ' } });
    expect(await screen.findByText('请输入工作表名称')).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('saves the whole configuration with a column added and a code listed twice refused', async () => {
    const calls = mockApi((c) => {
      if (c.path === '/api/sysconfigs/erp' && c.method === 'GET') return { body: saved };
      if (c.path === '/api/sysconfigs/erp' && c.method === 'PUT') return { body: c.body };
      if (c.path === '/api/tariffs') return { body: [] };
      return undefined;
    });
    const toasts = recordToasts();
    renderScreen(<ErpConfigForm />);
    await waitFor(() => expect(screen.getAllByTestId('erp-column')).toHaveLength(2));

    fireEvent.click(screen.getByText('添加编码'));
    const ids = screen.getAllByLabelText('设备编号');
    fireEvent.change(ids[1] as HTMLElement, { target: { value: 'TR-01' } });
    fireEvent.change(screen.getAllByLabelText('ERP 编码')[1] as HTMLElement, { target: { value: 'CC-2' } });
    fireEvent.click(screen.getByTestId('erp-save'));
    expect(await screen.findByText('该设备已在上面列出')).toBeTruthy();
    fireEvent.change(ids[1] as HTMLElement, { target: { value: 'TR-02' } });

    fireEvent.click(screen.getByText('添加列'));
    const columns = screen.getAllByTestId('erp-column');
    fireEvent.change(within(columns[2] as HTMLElement).getByLabelText('列标题'), {
      target: { value: '用量' },
    });
    fireEvent.click(screen.getByTestId('erp-save'));

    await waitFor(() => expect(toasts).toContainEqual({ kind: 'success', text: '修改成功' }));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      ...saved,
      columns: [...saved.columns, { field: 'consumption', header: '用量' }],
      codes: { 'TR-01': 'CC-1', 'TR-02': 'CC-2' },
      tariffs: {},
    });
  });
});
