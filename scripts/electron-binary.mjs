// Where the Electron binary is, without `require('electron')`: that call tries to download
// the binary when it is missing, which can never work on our build machines.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** @returns {{ path?: string, reason?: string }} */
export function electronBinary() {
  const pkg = path.join(root, 'node_modules', 'electron');
  const pathFile = path.join(pkg, 'path.txt');
  const name = fs.existsSync(pathFile) ? fs.readFileSync(pathFile, 'utf8').trim() : undefined;
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const candidate = override ? path.join(override, name || 'electron') : name ? path.join(pkg, 'dist', name) : undefined;
  if (candidate && fs.existsSync(candidate)) return { path: candidate };
  return {
    reason: candidate
      ? `the Electron binary ${candidate} is missing`
      : 'no Electron binary is installed (node_modules/electron was installed with ELECTRON_SKIP_BINARY_DOWNLOAD=1)',
  };
}
