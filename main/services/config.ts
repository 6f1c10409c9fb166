import os from 'node:os';
import path from 'node:path';
import type { DialogsPort } from './downloads/service';

export type HostKind = 'electron' | 'browser' | 'cli';

export interface ServicesConfig {
  dataDir: string;
  version: string;
  host: HostKind;
  /** Injected so tests can move time; defaults to the wall clock. */
  now?: () => Date;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
  /** Host abilities (Electron: folder dialog, file manager); absent in the browser host and CLI. */
  dialogs?: DialogsPort;
}

export const PRODUCT_DIR_NAME = 'eInvoice Desk';

/**
 * The data folder shared by the app and the CLI: `EINVOICE_DATA_DIR` when set, otherwise the
 * same folder Electron calls `userData` for our product name, so both open one database.
 */
export function resolveDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  const explicit = env.EINVOICE_DATA_DIR?.trim();
  if (explicit) return path.resolve(explicit);
  const home = os.homedir();
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), PRODUCT_DIR_NAME);
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', PRODUCT_DIR_NAME);
  return path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), PRODUCT_DIR_NAME);
}
