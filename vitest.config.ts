import { defineConfig } from 'vitest/config';

// One runner for every package: `npm test` runs these projects, then the browser suite. Under CI a
// failed test runs once more, as the browser suite does (playwright.config.ts): the 2-core CI machine
// runs both dialects' suites side by side, and the known timing-sensitive cases are in the issue notes.
const retry = process.env.CI ? 1 : 0;

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'contract',
          root: './contract',
          include: ['src/**/*.test.ts'],
          environment: 'node',
          retry,
        },
      },
      {
        test: {
          name: 'server',
          root: './server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30000,
          retry,
          hookTimeout: 60000,
        },
      },
      './web/vitest.config.ts',
    ],
  },
});
