import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './precompress.ts';

export default defineConfig({
  plugins: [react(), precompress()],
  base: './',
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:8080' },
  },
  build: {
    outDir: 'dist',
    // dist/.vite/manifest.json: the bundle-budget test walks the login page's imports in it.
    manifest: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      // TypeBox schema builders (contract/) are pure: a screen that needs one constant of a
      // contract module must not pull the schemas and TypeBox into its chunk.
      treeshake: { manualPureFunctions: ['Type'] },
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
