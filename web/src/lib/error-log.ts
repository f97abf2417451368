import { create } from 'zustand';

/** Uncaught UI errors (spec §8), shown in the Error Log dialog opened from the top bar. */
export interface ErrorLogEntry {
  message: string;
  info: string;
  url: string;
  stack: string;
  at: number;
}

interface ErrorLogState {
  entries: ErrorLogEntry[];
  add(entry: Omit<ErrorLogEntry, 'at'>): void;
  clear(): void;
}

const MAX_ENTRIES = 100;

export const useErrorLog = create<ErrorLogState>((set) => ({
  entries: [],
  add: (entry) =>
    set((s) => ({ entries: [{ ...entry, at: Date.now() }, ...s.entries].slice(0, MAX_ENTRIES) })),
  clear: () => set({ entries: [] }),
}));

export function logError(error: unknown, info: string) {
  const e = error instanceof Error ? error : new Error(String(error));
  console.error(e);
  useErrorLog.getState().add({ message: e.message, info, url: window.location.href, stack: e.stack ?? '' });
}

/** Records errors no component caught: script errors and unhandled promise rejections. */
export function installGlobalErrorLogging() {
  window.addEventListener('error', (event) => logError(event.error ?? event.message, 'window.onerror'));
  window.addEventListener('unhandledrejection', (event) => {
    // Cancelled duplicate calls and already-toasted http failures are expected, not UI faults.
    const reason = event.reason as { name?: string } | undefined;
    if (reason?.name === 'HttpError') return;
    logError(event.reason, 'unhandledrejection');
  });
}
