import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One runner for every package: `npm test` runs these projects, then the browser suite.
export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: a single worker on a 2-core machine,
    // where the API suites spend much of their time waiting for PostgreSQL and DuckDB.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      { test: { name: 'contract', root: './contract', include: ['src/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'server',
          root: './server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30000,
          hookTimeout: 60000,
        },
      },
      './web/vitest.config.ts',
    ],
  },
});
