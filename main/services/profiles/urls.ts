import { AppError } from '../../../common/errors';

/** The public deployments (DOMAIN.md); offered as presets, never assumed. */
export const PRESETS = {
  test: {
    name: 'Test (meInvoice)',
    baseUrl: 'https://testapi.meinvoice.vn/api/integration/invoice',
    tokenUrl: 'https://testapi.meinvoice.vn/api/integration/auth/token',
  },
  production: {
    name: 'Production (meInvoice)',
    baseUrl: 'https://api.meinvoice.vn/api/integration/invoice',
    tokenUrl: 'https://api.meinvoice.vn/api/integration/auth/token',
  },
} as const;

const FIELD_LABEL = {
  baseUrl: { en: 'Service address (base URL)', vi: 'Địa chỉ dịch vụ (base URL)' },
  tokenUrl: { en: 'Token address (token URL)', vi: 'Địa chỉ lấy token (token URL)' },
} as const;

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * Checks a service URL typed by a user: an absolute http(s) URL, https required unless the
 * host is this computer (loopback). Returns it normalised (no trailing slash, no query/hash).
 */
export function checkServiceUrl(field: keyof typeof FIELD_LABEL, raw: string): string {
  const label = FIELD_LABEL[field];
  const fail = (en: string, vi: string) =>
    new AppError(
      'profile_url_invalid',
      { en: `${label.en}: ${en}`, vi: `${label.vi}: ${vi}` },
      { issues: [{ path: field, message: `${label.en}: ${en}`, messageVi: `${label.vi}: ${vi}` }] },
    );
  const text = raw.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw fail('enter a full address starting with https://', 'hãy nhập địa chỉ đầy đủ bắt đầu bằng https://');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw fail('only https:// addresses are allowed', 'chỉ chấp nhận địa chỉ https://');
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw fail(
      'http:// is allowed only for this computer (localhost, 127.0.0.1, ::1); use https:// so the token is not sent unencrypted',
      'http:// chỉ được dùng cho chính máy này (localhost, 127.0.0.1, ::1); hãy dùng https:// để token không bị gửi đi mà không mã hóa',
    );
  }
  if (url.username || url.password) {
    throw fail('must not contain a user name or password', 'không được chứa tên đăng nhập hay mật khẩu');
  }
  url.hash = '';
  url.search = '';
  return url.toString().replace(/\/+$/, '');
}
