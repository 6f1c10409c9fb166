import type { IssuingServiceDeps } from './issuing';
import os from 'node:os';
import path from 'node:path';
import type { ClientDefaults } from './api';
import type { WorkSession, WorkSessionParts } from './auth/work-session';
import type { ConnectivityOptions } from './connectivity/connectivity';
import type { DialogsPort, DownloadsDeps } from './downloads/service';
import type { EmailServiceDeps } from './emails';
import type { StartSandbox } from './profiles/sandbox-runner';
import type { SecretStore } from './secrets';

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
  /**
   * False for a host that does one job and exits (the CLI): nothing starts by itself — no
   * connectivity monitor, no email sending on start, no resumed downloads. Default true.
   */
  background?: boolean;
  /** Whose work and which sign-in; default the active profile through the sign-in gate. */
  workSession?: (parts: WorkSessionParts) => WorkSession;
  /** Applied to every service client (the CLI's `--timeout` and EINVOICE_DEBUG). */
  clients?: ClientDefaults;
  /** The OS keychain by default (fail closed to memory); tests pass a MemorySecretStore. */
  secrets?: SecretStore;
  /** The built-in Sandbox profile's service; default in-process on 127.0.0.1 (or EINVOICE_SANDBOX_URL). */
  startSandbox?: StartSandbox;
  /** Connectivity timing (tests shorten it). */
  connectivity?: Omit<ConnectivityOptions, 'bus' | 'probe' | 'now'>;
  /** Email queue options (tests shorten the backoff and grace period). */
  emails?: Partial<EmailServiceDeps>;
  /** Issue queue options (tests shorten the settle window and the backoff). */
  issuing?: Partial<IssuingServiceDeps>;
  /** Download engine options (the CLI's `--concurrency`). */
  downloads?: Pick<DownloadsDeps, 'engine'>;
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
