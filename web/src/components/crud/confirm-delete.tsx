import { Alert, App, Space } from 'antd';
import { type ReactNode, useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../lib/notify.ts';

export interface ConfirmActionOptions<T> {
  /** What is about to happen, e.g. “Delete rule X?”. */
  content: ReactNode;
  /** The action itself; the dialog closes when it resolves. */
  onOk: () => Promise<T>;
  title: ReactNode;
  okText: string;
  /** The toast once done, from the action's answer when it says more than “done”. */
  done: string | ((answer: T) => string);
  /** A destructive action (delete, unbind) gets the red button. */
  danger?: boolean;
}

export interface ConfirmDeleteOptions<T = unknown> {
  /** What is about to go, e.g. “Delete rule X?”. */
  content: ReactNode;
  /** The delete itself; the dialog closes when it resolves. */
  onDelete: () => Promise<T>;
  /** Shown instead of the shared “Confirm deletion”. */
  title?: ReactNode;
  /** Shown instead of the shared “Deleted” toast. */
  done?: string | ((answer: T) => string);
  /** Shown instead of the shared “Delete” on the button (e.g. “Unbind”). */
  okText?: string;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The confirmation before an action the user may regret. On success it closes and says so; on a
 * failure it stays open with the reason inside (the server's message in the user's language), so
 * the user reads why and retries or cancels, and nothing is swallowed.
 */
export function useConfirmAction() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  return useCallback(
    <T,>({ content, onOk, title, okText, done, danger }: ConfirmActionOptions<T>) => {
      const button = { danger: danger ?? false, 'data-testid': 'confirm-delete-ok' } as const;
      const dialog = modal.confirm({
        title,
        content,
        okButtonProps: button,
        okText,
        cancelText: t('common.cancel'),
        // Taking `close` keeps the dialog open until it is called: a failure must not close it.
        onOk: (close: () => void) => {
          dialog.update({ okButtonProps: { ...button, loading: true } });
          onOk().then(
            (answer) => {
              close();
              notify.success(typeof done === 'function' ? done(answer) : done);
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

/** {@link useConfirmAction} with the shared delete wording and the red button. */
export function useConfirmDelete() {
  const { t } = useTranslation();
  const confirm = useConfirmAction();
  return useCallback(
    <T,>({ content, onDelete, title, done, okText }: ConfirmDeleteOptions<T>) =>
      confirm<T>({
        content,
        onOk: onDelete,
        title: title ?? t('crud.deleteTitle'),
        okText: okText ?? t('crud.delete'),
        done: done ?? t('toast.deleted'),
        danger: true,
      }),
    [confirm, t],
  );
}
