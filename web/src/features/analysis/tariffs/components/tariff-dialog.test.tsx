import type { Tariff } from '@kilowatch/contract';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../../../lib/i18n.ts';
import { mockApi, renderScreen } from '../../../../testing/render-with-api.tsx';
import { TariffDialog } from './TariffDialog.tsx';

const tariff: Tariff = {
  id: 3,
  name: '工业电价',
  description: '',
  holidays: ['2026-10-01', '2026-10-02'],
  workdays: ['2026-10-11'],
  weekendDays: [6, 7],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  versions: [],
};

afterEach(() => vi.unstubAllGlobals());

describe('the tariff dialog', { timeout: 30_000 }, () => {
  it('names each list of picked days by its label for assistive technology', async () => {
    mockApi(() => undefined);
    renderScreen(<TariffDialog tariff={tariff} onClose={() => {}} />);
    // The label points at the group (Form.Item's id), and the group carries the label's name.
    const holidays = await screen.findByRole('group', { name: '节假日' });
    expect(holidays.id).toBe('holidays');
    expect(document.querySelector('label[for=holidays]')?.textContent).toBe('节假日');
    expect(holidays.querySelector('input')?.value).toBe('2026-10-01,2026-10-02');
    const workdays = screen.getByRole('group', { name: '调休上班日' });
    expect(workdays.querySelector('input')?.value).toBe('2026-10-11');
  });
});
