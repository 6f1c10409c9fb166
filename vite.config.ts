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
    // Loaded from the local disk (app:// or 127.0.0.1), so larger chunks cost nothing.
    chunkSizeWarningLimit: 2048,
    // One stylesheet, there from the first paint: no screen is drawn before its styles are in.
    cssCodeSplit: false,
    rolldownOptions: {
      output: {
        // The areas the app does not open on (app/later-areas.ts) load as it starts: V8 compiles
        // that chunk whole while it streams in, off the page's thread, instead of each function on
        // the first click that calls it. The hint is a comment, so it goes on after minification.
        postBanner: (chunk) => (chunk.name === 'later-areas' ? '//# allFunctionsCalledOnLoad' : ''),
      },
    },
  },
});
