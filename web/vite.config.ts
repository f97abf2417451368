import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './precompress.ts';

const ANTD_PARTS = /node_modules[\\/](@rc-component|@ant-design)[\\/]/;

export default defineConfig({
  plugins: [react(), precompress()],
  base: './',
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:8080' },
  },
  build: {
    outDir: 'dist',
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      treeshake: {
        // TypeBox schema builders (contract/) are pure: a screen that needs one constant of a
        // contract module must not pull the schemas and TypeBox into its chunk.
        manualPureFunctions: ['Type'],
        // antd's rc-components and @ant-design helpers declare no `sideEffects`, though their
        // import-time statements only set up their own exports: without this, a barrel import
        // keeps modules nobody uses (antd's Form store and validator were in the login page).
        moduleSideEffects: (id) => (ANTD_PARTS.test(id) && !id.endsWith('.css') ? false : undefined),
      },
      output: {
        codeSplitting: {
          // Higher priority claims a module first. antd and its rc-components are in no group:
          // they split with the (lazy) screens that use them.
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/,
              priority: 30,
            },
            // Only the chart screens load it (lazily), so it stays out of the first load.
            {
              name: 'echarts',
              test: /node_modules[\\/](echarts|zrender|echarts-for-react|size-sensor)[\\/]/,
              priority: 20,
            },
          ],
        },
      },
    },
  },
});
