import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const vendorChunks: Record<string, RegExp> = {
  react: /node_modules\/(react|react-dom|react-router|scheduler)\//,
  antd: /node_modules\/(antd|@ant-design|@rc-component|rc-[\w-]+)\//,
};

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
    rollupOptions: {
      output: {
        manualChunks(id) {
          for (const [name, pattern] of Object.entries(vendorChunks)) if (pattern.test(id)) return name;
          return id.includes('node_modules') ? 'vendor' : undefined;
        },
      },
    },
  },
});
