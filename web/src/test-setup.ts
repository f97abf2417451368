import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// The build tests run in node (`@vitest-environment node`): no DOM to clean or patch there.
const hasDom = typeof window !== 'undefined';

afterEach(() => {
  if (!hasDom) return;
  cleanup();
  localStorage.clear();
});

// findBy/waitFor give up after 1 s by default; antd's forms validate and render asynchronously,
// which takes longer than that on a loaded 2-core CI machine. A real failure still fails, later.
if (hasDom) configure({ asyncUtilTimeout: 5000 });

// The console loads the features' messages after login (lib/i18n.ts); components under test get
// them from the start, as a screen does.
if (hasDom) await (await import('./lib/i18n.ts')).featureMessagesReady();

// antd's responsive helpers (Grid, Table) call window.matchMedia, which jsdom lacks.
if (hasDom)
  window.matchMedia ??= (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener() {},
      removeListener() {},
      addEventListener() {},
      removeEventListener() {},
      dispatchEvent: () => false,
    }) as MediaQueryList;

// antd's tables, trees and selects observe their size; jsdom has no ResizeObserver.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
