import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One runner for every package: `npm test` runs these projects, then the browser suite.
// Under CI a failed test runs once more, as the browser suite's do; `npm test` names each test that
// needed it (scripts/vitest-outcomes.mjs), so a flaky test is seen, not hidden.
const retry = process.env.CI ? 1 : 0;

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: a single worker on a 2-core machine,
    // where the API suites spend much of their time waiting for PostgreSQL and DuckDB.
    maxWorkers: Math.max(2, availableParallelism() - 1),
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
          retry,
          testTimeout: 30000,
          hookTimeout: 60000,
        },
      },
      './web/vitest.config.ts',
    ],
  },
});
