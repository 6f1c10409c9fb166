/**
 * The security posture of every window, as data, so tests can assert it without Electron.
 * (Electron checklist: contextIsolation, sandbox, no nodeIntegration, strict CSP, custom
 * protocol instead of file://, no new windows, no navigation, no permissions.)
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'einvoice';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

/**
 * webPreferences every window shares beyond the three that must be visible at each
 * `new BrowserWindow` (contextIsolation, sandbox, nodeIntegration), which are written there
 * literally so a reviewer and the static audit see them.
 */
export const HARDENED_WEB_PREFERENCES = {
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  experimentalFeatures: false,
  webviewTag: false,
  navigateOnDragDrop: false,
  spellcheck: false,
  safeDialogs: true,
} as const;

/** True when a URL belongs to our own app:// origin (Node's URL gives custom schemes a 'null' origin). */
export function isAppUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return url.protocol === `${APP_SCHEME}:` && url.host === APP_HOST;
  } catch {
    return false;
  }
}

/** `shell.openExternal` gets only plain https links: no credentials, no other scheme. */
export function isVettedExternalUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return url.protocol === 'https:' && url.hostname !== '' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}
