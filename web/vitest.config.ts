import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'web',
    root: import.meta.dirname,
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    // The first render of a screen imports antd and friends: seconds on a loaded 2-core machine.
    testTimeout: 15000,
    setupFiles: ['./src/test-setup.ts'],
    // Under CI a failed test runs once more; `npm test` names it (see the root vitest.config.ts).
    retry: process.env.CI ? 1 : 0,
  },
});
