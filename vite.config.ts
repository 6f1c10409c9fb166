import react from '@vitejs/plugin-react';
import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';

/** Text in the app's code that stands for the later areas' chunk file; the build writes the name in. */
const LATER_AREAS_FILE = '__LATER_AREAS_FILE__';

/**
 * Writes the later areas' chunk file name into the code that loads it: a browser keeps a module load
 * that failed, so a second try asks for the same file under another address.
 */
function laterAreasFileName(): Plugin {
  return {
    name: 'later-areas-file-name',
    generateBundle(_, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const later = chunks.find((c) => c.name === 'later-areas');
      if (!later) throw new Error('no later-areas chunk in the build');
      const users = chunks.filter((c) => c.code.includes(LATER_AREAS_FILE));
      if (users.length === 0) throw new Error(`no chunk holds ${LATER_AREAS_FILE}`);
      for (const c of users) c.code = c.code.replaceAll(LATER_AREAS_FILE, path.posix.basename(later.fileName));
    },
  };
}

export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react(), laterAreasFileName()],
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
