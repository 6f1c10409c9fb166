// One build for every part: esbuild bundles main (Electron host, browser host, CLI) and the
// preload as CommonJS for Node/Electron; Vite builds the React renderer.
import { build as esbuild } from 'esbuild';
import { build as viteBuild } from 'vite';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'out');
const quiet = process.argv.includes('--quiet');
// A build started from a test run inherits NODE_ENV=test, with which Vite's React plugin emits the
// development JSX runtime (jsxDEV) even in production mode: what out/ holds is always the product.
process.env.NODE_ENV = 'production';
// Builds overwrite in place so a test reading out/ is never left without files; `--clean`
// (used by `npm run dist`) starts from an empty out/.
const clean = process.argv.includes('--clean');
if (clean) await rm(out, { recursive: true, force: true });

const node = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  sourcemap: 'linked',
  logLevel: quiet ? 'error' : 'warning',
  // Electron is provided at run time; native and Electron-bound packages stay in node_modules.
  external: ['electron', 'electron-updater', '@napi-rs/keyring'],
  absWorkingDir: root,
};

await Promise.all([
  esbuild({
    ...node,
    entryPoints: {
      electron: 'main/electron/main.ts',
      'browser-host': 'main/browser-host/main.ts',
      cli: 'main/cli/main.ts',
      // The thread that reads email CSV imports (main/services/emails/csv-reader.ts).
      'email-csv': 'main/services/emails/csv-worker.ts',
    },
    outdir: path.join(out, 'main'),
    outExtension: { '.js': '.cjs' },
  }),
  // Sandboxed preloads cannot require local files: one self-contained CommonJS bundle.
  esbuild({
    ...node,
    entryPoints: { index: 'preload/index.ts' },
    platform: 'browser',
    outdir: path.join(out, 'preload'),
    outExtension: { '.js': '.cjs' },
    sourcemap: false,
    minify: true,
  }),
  // mode: without it this Vite/plugin-react pair emits React's development JSX runtime (jsxDEV).
  viteBuild({ configFile: path.join(root, 'vite.config.ts'), mode: 'production', logLevel: quiet ? 'error' : 'warn', build: { emptyOutDir: clean } }),
]);
if (!quiet) console.log('Built main, preload and renderer into out/.');
