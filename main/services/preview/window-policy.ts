import { isLoopbackHost } from '../../../common/rules/network';
import { HARDENED_WEB_PREFERENCES } from '../../security-policy';

/**
 * The preview window's security posture as data (no Electron import, so tests can check it):
 * a separate sandboxed webContents, no preload, its own `persist:` partition, the PDF served
 * from our own `preview://` scheme, navigation locked to the preview's origin.
 */
export const PREVIEW_SCHEME = 'preview';
export const PREVIEW_PARTITION = 'persist:preview';

export function previewUrl(previewId: string): string {
  return `${PREVIEW_SCHEME}://kept/${encodeURIComponent(previewId)}.pdf`;
}

/** `preview://kept/<id>.pdf` → `<id>`; null for anything else. */
export function previewIdFromUrl(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== `${PREVIEW_SCHEME}:` || url.host !== 'kept') return null;
  const m = /^\/([^/]+)\.pdf$/.exec(url.pathname);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return null;
  }
}

export function previewWebPreferences() {
  return {
    partition: PREVIEW_PARTITION,
    // No preload: the page gets no bridge to the app at all.
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    ...HARDENED_WEB_PREFERENCES,
    javascript: true,
    // The built-in PDF viewer.
    plugins: true,
    devTools: false,
  } as const;
}

/** The origin the window may stay on: preview:// for kept bytes, the link's own origin for a page. */
export function allowedOrigin(startUrl: string): string {
  const url = new URL(startUrl);
  return url.protocol === `${PREVIEW_SCHEME}:` ? `${PREVIEW_SCHEME}://${url.host}` : url.origin;
}

/** Navigation inside the preview window is allowed only within its starting origin. */
export function isAllowedNavigation(startUrl: string, target: string): boolean {
  try {
    const t = new URL(target);
    const origin = t.protocol === `${PREVIEW_SCHEME}:` ? `${PREVIEW_SCHEME}://${t.host}` : t.origin;
    // The PDF viewer's own pages are internal to Chromium.
    if (t.protocol === 'chrome-extension:') return true;
    return origin === allowedOrigin(startUrl) && (t.protocol === 'https:' || t.protocol === `${PREVIEW_SCHEME}:` || isLoopbackHttp(t));
  } catch {
    return false;
  }
}

function isLoopbackHttp(u: URL): boolean {
  return u.protocol === 'http:' && isLoopbackHost(u.hostname);
}
