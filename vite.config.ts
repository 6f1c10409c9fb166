import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  build: {
    outDir: '../out/renderer',
    sourcemap: false,
    target: 'chrome130',
    // Loaded from the local disk (app:// or 127.0.0.1), so one larger bundle costs nothing.
    chunkSizeWarningLimit: 2048,
  },
});
