import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Button } from 'antd';
import { describe, expect, it } from 'vitest';
import '../../lib/i18n.ts';
import i18n from '../../lib/i18n.ts';
import { recordToasts, renderScreen } from '../../testing/render-with-api.tsx';
import { useConfirmDelete } from './confirm-delete.tsx';

function Harness({ onDelete }: { onDelete: () => Promise<unknown> }) {
  const confirmDelete = useConfirmDelete();
  return <Button onClick={() => confirmDelete({ content: 'Delete “pump”?', onDelete })}>go</Button>;
}

describe('useConfirmDelete', () => {
  it('deletes on confirm, closes and says so', async () => {
    await i18n.changeLanguage('en');
    const toasts = recordToasts();
    let deleted = 0;
    renderScreen(<Harness onDelete={async () => void deleted++} />);
    fireEvent.click(screen.getByText('go'));
    expect(await screen.findByText('Delete “pump”?')).toBeTruthy();
    expect(deleted).toBe(0);
    fireEvent.click(screen.getByTestId('confirm-delete-ok'));
    await waitFor(() => expect(toasts).toContainEqual({ kind: 'success', text: 'Deleted' }));
    expect(deleted).toBe(1);
  });

  it('keeps the dialog open with the reason when the delete fails', async () => {
    await i18n.changeLanguage('en');
    const toasts = recordToasts();
    let tries = 0;
    renderScreen(
      <Harness
        onDelete={async () => {
          tries++;
          if (tries === 1) throw new Error('The template still has monitors');
        }}
      />,
    );
    fireEvent.click(screen.getByText('go'));
    fireEvent.click(await screen.findByTestId('confirm-delete-ok'));
    expect((await screen.findByTestId('confirm-delete-error')).textContent).toContain(
      'The template still has monitors',
    );
    expect(screen.getByText('Delete “pump”?')).toBeTruthy();
    expect(toasts.filter((x) => x.kind === 'success')).toEqual([]);
    // The user may try again from the same dialog.
    fireEvent.click(screen.getByTestId('confirm-delete-ok'));
    await waitFor(() => expect(toasts).toContainEqual({ kind: 'success', text: 'Deleted' }));
    expect(tries).toBe(2);
  });
});
