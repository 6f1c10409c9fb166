import { isLoopbackHost, OFFLINE_ERROR_CODES } from '../../../common/rules/network';

/** Where updates come from, or why there are none. Pure: the Electron host passes in what it knows. */
export type UpdateFeed = { provider: 'github' } | { provider: 'generic'; url: string };

export type UpdaterMode = ({ enabled: true; feed: UpdateFeed } | { enabled: false; reason: 'setting' | 'env' | 'unsupported'; detail: string }) & {
  /** A feed override this build did not honour (packaged builds read only the release feed), for the log. */
  ignored?: string;
};

export interface UpdaterModeInput {
  env: Record<string, string | undefined>;
  argv: readonly string[];
  /**
   * `app.isPackaged` (Electron: the executable is not Electron's own `electron`/`electron.exe`). Only
   * an unpackaged (development) run honours a feed override.
   */
  isPackaged: boolean;
  platform: string;
  /** The in-app switch (Settings). */
  settingEnabled: boolean;
  /** How a Linux build was installed: electron-updater can update an AppImage or a .deb. */
  linuxPackage?: 'appimage' | 'deb' | 'rpm' | 'pacman' | null;
  /** Mac App Store builds update through the store. */
  masBuild?: boolean;
  /**
   * Whether the build carries electron-builder's `resources/app-update.yml` (written from `publish`);
   * the per-machine variant has none and so never updates itself.
   */
  hasUpdateConfig?: boolean;
}

const TRUE_VALUES = new Set(['1', 'true', 'yes', 'on']);

/** `ELECTRON_NO_UPDATER=1` in the environment (or as a `--ELECTRON_NO_UPDATER=1` argument, as Bitwarden accepts). */
export function updaterTurnedOffByEnvironment(env: Record<string, string | undefined>, argv: readonly string[]): boolean {
  if (TRUE_VALUES.has((env.ELECTRON_NO_UPDATER ?? '').trim().toLowerCase())) return true;
  return argv.some((arg) => /^--?ELECTRON_NO_UPDATER(=(1|true|yes|on))?$/i.test(arg.trim()));
}

/** A URL as it may be logged: no credentials, query string or fragment (they can carry tokens). */
export function urlForLog(raw: string): string {
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return '(not a URL)';
  }
}

/** `EINVOICE_UPDATE_URL`: http(s) only, and https unless it is this machine (a test server). */
export function parseUpdateUrl(raw: string): { ok: true; url: string } | { ok: false; detail: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, detail: 'EINVOICE_UPDATE_URL is not a URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, detail: `EINVOICE_UPDATE_URL must be http(s): ${urlForLog(raw)}` };
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return { ok: false, detail: `EINVOICE_UPDATE_URL must use https unless it points at this machine: ${urlForLog(raw)}` };
  }
  if (url.username || url.password) return { ok: false, detail: 'EINVOICE_UPDATE_URL must not carry credentials' };
  // The manifests are looked up relative to it: a folder (a query string stays after the path).
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return { ok: true, url: url.href };
}

/**
 * Decides whether this run of the app updates itself and from where. Order: the environment switch
 * (IT's, wins over everything), the in-app setting, the test feed (development runs only: a packaged
 * build updates from the release feed whatever its environment says), then whether this build is an
 * installed, updatable one (packaged; not a portable/store build; an AppImage or .deb on Linux).
 */
export function resolveUpdaterMode(input: UpdaterModeInput): UpdaterMode {
  const mode = decide(input);
  const override = input.env.EINVOICE_UPDATE_URL?.trim();
  if (input.isPackaged && override) return { ...mode, ignored: `EINVOICE_UPDATE_URL=${urlForLog(override)}` };
  return mode;
}

function decide(input: UpdaterModeInput): UpdaterMode {
  if (updaterTurnedOffByEnvironment(input.env, input.argv)) {
    return { enabled: false, reason: 'env', detail: 'ELECTRON_NO_UPDATER=1' };
  }
  if (!input.settingEnabled) return { enabled: false, reason: 'setting', detail: 'turned off in Settings' };

  const testUrl = input.isPackaged ? undefined : input.env.EINVOICE_UPDATE_URL?.trim();
  if (testUrl) {
    const parsed = parseUpdateUrl(testUrl);
    if (!parsed.ok) return { enabled: false, reason: 'unsupported', detail: parsed.detail };
    return { enabled: true, feed: { provider: 'generic', url: parsed.url } };
  }

  if (!input.isPackaged) return { enabled: false, reason: 'unsupported', detail: 'not a packaged build' };
  if (input.platform === 'win32' && input.env.PORTABLE_EXECUTABLE_DIR) {
    return { enabled: false, reason: 'unsupported', detail: 'portable Windows build' };
  }
  if (input.platform === 'darwin' && input.masBuild) {
    return { enabled: false, reason: 'unsupported', detail: 'Mac App Store build' };
  }
  if (input.platform === 'linux' && input.linuxPackage !== 'appimage' && input.linuxPackage !== 'deb') {
    return { enabled: false, reason: 'unsupported', detail: 'Linux build that is neither an AppImage nor a .deb' };
  }
  if (!['win32', 'darwin', 'linux'].includes(input.platform)) {
    return { enabled: false, reason: 'unsupported', detail: `platform ${input.platform}` };
  }
  if (input.hasUpdateConfig === false) {
    return { enabled: false, reason: 'unsupported', detail: 'this build has no update feed (per-machine installer)' };
  }
  return { enabled: true, feed: { provider: 'github' } };
}

/** True for failures that mean "no network right now" (Node codes, Chromium net:: errors), not a broken release. */
export function isOfflineError(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && OFFLINE_ERROR_CODES.has(code)) return true;
  const text = typeof message === 'string' ? message : '';
  return (
    /net::ERR_(INTERNET_DISCONNECTED|NAME_NOT_RESOLVED|NAME_RESOLUTION_FAILED|NETWORK_CHANGED|CONNECTION_\w+|ADDRESS_UNREACHABLE|TIMED_OUT|NETWORK_IO_SUSPENDED|PROXY_CONNECTION_FAILED)/.test(
      text,
    ) || /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH)\b/.test(text)
  );
}
