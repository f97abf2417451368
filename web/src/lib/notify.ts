import { TOAST_DURATION_MS } from '@kilowatch/contract';

/**
 * Toasts raised outside React (the http module, the guard). The app installs antd's
 * context-aware `message` API at start; tests install a recorder.
 */
export interface Notifier {
  success(text: string): void;
  warning(text: string): void;
  error(text: string): void;
}

const consoleNotifier: Notifier = {
  success: (text) => console.info(text),
  warning: (text) => console.warn(text),
  error: (text) => console.error(text),
};

let current: Notifier = consoleNotifier;

export const setNotifier = (notifier: Notifier) => {
  current = notifier;
};

export const notify: Notifier = {
  success: (text) => current.success(text),
  warning: (text) => current.warning(text),
  error: (text) => current.error(text),
};

export const TOAST_SECONDS = TOAST_DURATION_MS / 1000;
