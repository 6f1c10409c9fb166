import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Bundles a TypeScript entry into one CommonJS file for Node, as scripts/build.mjs bundles the app
 * (Electron-bound and native packages stay in node_modules); returns `outfile`. For tests that run
 * a part of the app in its own process or thread without depending on `out/`.
 */
export async function bundleForNode(entry: string, outfile: string): Promise<string> {
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    outfile,
    external: ['electron', 'electron-updater', '@napi-rs/keyring'],
    logLevel: 'error',
    absWorkingDir: root,
  });
  return outfile;
}
