import { apiErrors } from './errors';

/** The known public deployments (DOMAIN.md); offered as presets, never assumed. */
export const SERVICE_PRESETS = {
  test: 'https://testapi.meinvoice.vn/api/integration/invoice',
  production: 'https://api.meinvoice.vn/api/integration/invoice',
} as const;

export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * Checks a service address: an absolute http(s) URL, https unless the host is loopback (the
 * sandbox), no credentials or fragment in it. Returns it without a trailing slash.
 */
export function parseServiceUrl(raw: string, what: { en: string; vi: string } = { en: 'service address', vi: 'địa chỉ dịch vụ' }): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw apiErrors.config({
      en: `The ${what.en} "${raw}" is not a valid URL (expected e.g. https://api.example.vn/api/integration/invoice).`,
      vi: `${capitalise(what.vi)} "${raw}" không phải URL hợp lệ (ví dụ đúng: https://api.example.vn/api/integration/invoice).`,
    });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw apiErrors.config({
      en: `The ${what.en} must start with https:// (got ${url.protocol}).`,
      vi: `${capitalise(what.vi)} phải bắt đầu bằng https:// (đang là ${url.protocol}).`,
    });
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw apiErrors.config({
      en: `The ${what.en} must use https:// (plain http is allowed only for this computer, e.g. the sandbox on 127.0.0.1): ${url.origin}.`,
      vi: `${capitalise(what.vi)} phải dùng https:// (chỉ cho phép http với chính máy này, ví dụ sandbox trên 127.0.0.1): ${url.origin}.`,
    });
  }
  if (url.username || url.password) {
    throw apiErrors.config({
      en: `The ${what.en} must not contain a user name or password.`,
      vi: `${capitalise(what.vi)} không được chứa tên đăng nhập hoặc mật khẩu.`,
    });
  }
  url.hash = '';
  if (url.pathname.length > 1 && url.pathname.endsWith('/')) url.pathname = url.pathname.replace(/\/+$/, '');
  return url;
}

/** `…/api/integration/invoice` → `…/api/integration/auth/token` (DOMAIN.md token operation). */
export function defaultTokenUrl(baseUrl: URL): URL {
  const u = new URL(baseUrl.href);
  const path = u.pathname.replace(/\/+$/, '');
  u.pathname = /\/invoice$/i.test(path) ? path.replace(/\/invoice$/i, '/auth/token') : `${path}/auth/token`;
  u.search = '';
  return u;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
