import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  base: './',
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:8080' },
  },
  build: {
    outDir: 'dist',
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        advancedChunks: {
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
            {
              name: 'vendor',
              test: (id: string) =>
                id.includes('node_modules') &&
                !/node_modules[\\/](antd|@ant-design|@rc-component|rc-[\w-]+)[\\/]/.test(id) &&
                // exceljs is imported only when a user exports: its own lazy chunk.
                !/node_modules[\\/]exceljs[\\/]/.test(id),
              priority: 10,
            },
          ],
        },
      },
    },
  },
});
