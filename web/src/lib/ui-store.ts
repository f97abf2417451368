import { DEFAULT_SIZE, type Language, MOBILE_BREAKPOINT_PX, SIZES, type Size } from '@kilowatch/contract';
import { create } from 'zustand';
import { initialLanguage } from './i18n.ts';
import { cookieStorage } from './storage.ts';

type Device = 'desktop' | 'mobile';

/**
 * The console's colours: the spec's (#409EFF, white on it is 2.78:1) or one whose every text
 * passes WCAG AA (docs/decisions.md). Kept in a cookie like size and language.
 */
export const THEMES = ['default', 'highContrast'] as const;
export type Theme = (typeof THEMES)[number];

/** A visited view kept in the tab strip. */
export interface VisitedView {
  path: string;
  fullPath: string;
  titleKey: string;
}

interface UiState {
  sidebarOpened: boolean;
  device: Device;
  size: Size;
  language: Language;
  theme: Theme;
  visitedViews: VisitedView[];
  /** Bumped to remount a view when its tab is refreshed. */
  refreshKeys: Record<string, number>;
  toggleSidebar(): void;
  closeSidebar(): void;
  setDevice(device: Device): void;
  setSize(size: Size): void;
  setLanguage(language: Language): void;
  setTheme(theme: Theme): void;
  addView(view: VisitedView): void;
  /** Removes a view; returns the remaining views. */
  closeView(path: string): VisitedView[];
  closeOthers(path: string): void;
  closeAll(): void;
  refreshView(path: string): void;
}

const savedSize = (): Size => {
  const v = cookieStorage.get('size');
  return SIZES.includes(v as Size) ? (v as Size) : DEFAULT_SIZE;
};

const savedTheme = (): Theme => {
  const v = cookieStorage.get('theme');
  return THEMES.includes(v as Theme) ? (v as Theme) : 'default';
};

export const isMobileWidth = (width: number) => width < MOBILE_BREAKPOINT_PX;

export const useUi = create<UiState>((set, get) => ({
  // Cookie '0' means closed, anything else (or none) open, as the sidebar starts open.
  sidebarOpened: cookieStorage.get('sidebarStatus') !== '0',
  device: typeof window !== 'undefined' && isMobileWidth(window.innerWidth) ? 'mobile' : 'desktop',
  size: savedSize(),
  language: initialLanguage(),
  theme: savedTheme(),
  visitedViews: [],
  refreshKeys: {},
  toggleSidebar() {
    const opened = !get().sidebarOpened;
    cookieStorage.set('sidebarStatus', opened ? '1' : '0');
    set({ sidebarOpened: opened });
  },
  closeSidebar() {
    cookieStorage.set('sidebarStatus', '0');
    set({ sidebarOpened: false });
  },
  setDevice: (device) => set({ device }),
  setSize(size) {
    cookieStorage.set('size', size);
    set({ size });
  },
  setLanguage(language) {
    cookieStorage.set('language', language);
    set({ language });
  },
  setTheme(theme) {
    cookieStorage.set('theme', theme);
    set({ theme });
  },
  addView(view) {
    const views = get().visitedViews;
    const existing = views.findIndex((v) => v.path === view.path);
    if (existing === -1) set({ visitedViews: [...views, view] });
    else if (views[existing]?.fullPath !== view.fullPath) {
      set({ visitedViews: views.map((v, i) => (i === existing ? view : v)) });
    }
  },
  closeView(path) {
    const remaining = get().visitedViews.filter((v) => v.path !== path);
    set({ visitedViews: remaining });
    return remaining;
  },
  closeOthers: (path) => set((s) => ({ visitedViews: s.visitedViews.filter((v) => v.path === path) })),
  closeAll: () => set({ visitedViews: [] }),
  refreshView: (path) =>
    set((s) => ({ refreshKeys: { ...s.refreshKeys, [path]: (s.refreshKeys[path] ?? 0) + 1 } })),
}));

/** Spec §2: after closing the active tab, go to the last remaining tab, or to the root. */
export const nextPathAfterClosing = (remaining: readonly VisitedView[]) => remaining.at(-1)?.fullPath ?? '/';
