import { Alert, App, Space } from 'antd';
import { type ReactNode, useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../lib/notify.ts';

export interface ConfirmDeleteOptions {
  /** What is about to go, e.g. “Delete rule X?”. */
  content: ReactNode;
  /** The delete itself; the dialog closes when it resolves. */
  onDelete: () => Promise<unknown>;
  /** Shown instead of the shared “Confirm deletion”. */
  title?: ReactNode;
  /** Shown instead of the shared “Deleted” toast. */
  done?: string;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The confirmation before a delete. On success it closes and says so; on a failure it stays open
 * with the reason inside (the server's message in the user's language), so the user reads why and
 * retries or cancels, and nothing is swallowed.
 */
export function useConfirmDelete() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  return useCallback(
    ({ content, onDelete, title, done }: ConfirmDeleteOptions) => {
      const button = { danger: true, 'data-testid': 'confirm-delete-ok' } as const;
      const dialog = modal.confirm({
        title: title ?? t('crud.deleteTitle'),
        content,
        okButtonProps: button,
        okText: t('crud.delete'),
        cancelText: t('common.cancel'),
        // Taking `close` keeps the dialog open until it is called: a failure must not close it.
        onOk: (close: () => void) => {
          dialog.update({ okButtonProps: { ...button, loading: true } });
          onDelete().then(
            () => {
              close();
              notify.success(done ?? t('toast.deleted'));
            },
            (error: unknown) =>
              dialog.update({
                okButtonProps: button,
                content: (
                  <Space orientation="vertical" style={{ width: '100%' }}>
                    {content}
                    <Alert
                      type="error"
                      showIcon
                      title={errorText(error)}
                      data-testid="confirm-delete-error"
                    />
                  </Space>
                ),
              }),
          );
        },
      });
    },
    [modal, t],
  );
}
