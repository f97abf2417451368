import { App } from 'antd';
import { useCallback, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';

const OK_BUTTON = { danger: true, 'data-testid': 'diagram-discard-ok' } as const;
const CANCEL_BUTTON = { 'data-testid': 'diagram-discard-cancel' } as const;

export interface UnsavedChanges {
  /**
   * Asks before an in-page action drops the unsaved changes (switching diagrams, back to
   * monitoring): true at once when there are none, else whether the user chose to discard them.
   */
  confirmDiscard: () => Promise<boolean>;
  /** Navigates without the guard asking again (the user has just said yes). */
  pass: (navigate: () => void) => void;
}

/**
 * Guards the editor's unsaved changes with the console's own confirm dialog (zh/en/es): before
 * in-page actions (`confirmDiscard`), before leaving for another route or another diagram's
 * address (the router's blocker: links, the menu, Back), and before the tab closes or reloads
 * (`beforeunload`, which only the browser's own prompt may answer).
 */
export function useUnsavedChanges(dirty: boolean): UnsavedChanges {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  const passing = useRef(false);

  const ask = useCallback(
    () =>
      new Promise<boolean>((resolve) => {
        modal.confirm({
          title: t('diagram.discardTitle'),
          content: t('diagram.discard'),
          okText: t('diagram.discardOk'),
          cancelText: t('common.cancel'),
          okButtonProps: OK_BUTTON,
          cancelButtonProps: CANCEL_BUTTON,
          onOk: () => resolve(true),
          onCancel: () => resolve(false),
        });
      }),
    [modal, t],
  );
  const confirmDiscard = useCallback(async () => !dirtyRef.current || ask(), [ask]);
  const pass = useCallback((navigate: () => void) => {
    passing.current = true;
    try {
      navigate();
    } finally {
      passing.current = false;
    }
  }, []);

  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirtyRef.current &&
      !passing.current &&
      (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );
  const blockerRef = useRef(blocker);
  blockerRef.current = blocker;
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    void ask().then((discard) => {
      const current = blockerRef.current;
      if (current.state !== 'blocked') return;
      if (discard) current.proceed();
      else current.reset();
    });
  }, [blocker.state, ask]);

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older Chromium asks only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  return { confirmDiscard, pass };
}
