import type { Bilingual } from '../model/text';
/**
 * Network rules shared by every part that talks to, or about, the e-invoice service: which host
 * is this computer, which service address is acceptable, the public presets, which failures
 * are worth another attempt or mean "the service cannot be reached", and the batch limits.
 */

/** The public deployments; offered as presets, never assumed. */
export const SERVICE_PRESETS = {
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

/** Most TransactionIDs one Download call may carry (the service refuses more). */
export const MAX_DOWNLOAD_BATCH = 50;
/** Most invoices one sendemail call may carry. */
export const MAX_EMAIL_BATCH = 100;

const BATCH_LIMITS = {
  download: { max: MAX_DOWNLOAD_BATCH, en: 'Invoices per download request', vi: 'Số hóa đơn mỗi lần tải' },
  email: { max: MAX_EMAIL_BATCH, en: 'Emails per send request', vi: 'Số email mỗi lần gửi' },
} as const;

/** Why a batch size a person typed cannot be used (a whole number from 1 to the service's limit), or null. */
export function batchSizeProblem(what: keyof typeof BATCH_LIMITS, n: number): Bilingual | null {
  const { max, en, vi } = BATCH_LIMITS[what];
  if (Number.isInteger(n) && n >= 1 && n <= max) return null;
  return { en: `${en} must be a whole number from 1 to ${max}.`, vi: `${vi} phải là số nguyên từ 1 đến ${max}.` };
}

const IPV4_LOOPBACK = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/**
 * This computer: `localhost` itself, 127.0.0.0/8 and ::1 (with or without URL brackets).
 * Not `*.localhost`: such a name is resolved by whatever DNS the shop's network offers.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname
    .trim()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (host === 'localhost') return true;
  if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
  const m = IPV4_LOOPBACK.exec(host);
  return m !== null && m.slice(1).every((octet) => Number(octet) <= 255);
}

/** `…/api/integration/invoice` → `…/api/integration/auth/token` (docs/service.md#token). */
export function defaultTokenUrl(baseUrl: URL): URL {
  const u = new URL(baseUrl.href);
  const path = u.pathname.replace(/\/+$/, '');
  u.pathname = /\/invoice$/i.test(path) ? path.replace(/\/invoice$/i, '/auth/token') : `${path}/auth/token`;
  u.search = '';
  return u;
}

function urlOrNull(raw: string): URL | null {
  try {
    return new URL(raw.trim());
  } catch {
    return null;
  }
}

/** Where a profile's token and password go: the service's origin and the token operation's. */
function originsOf(urls: { baseUrl: string | null; tokenUrl: string | null }): string[] {
  if (!urls.baseUrl?.trim()) return [];
  const base = urlOrNull(urls.baseUrl);
  // An address that does not parse is a different place from any that does.
  if (!base) return [`unreadable ${urls.baseUrl.trim()}`];
  const token = urls.tokenUrl?.trim() ? urlOrNull(urls.tokenUrl) : defaultTokenUrl(base);
  return [base.origin, token ? token.origin : `unreadable ${urls.tokenUrl ?? ''}`];
}

/**
 * True when an edit moves the profile to another scheme, host or port (of the service or of
 * its token address): its token and remembered password must not follow. A path change on the
 * same origin keeps them. Pure and total, so a form can warn before saving.
 */
export function originChanged(
  before: { baseUrl: string | null; tokenUrl: string | null },
  after: { baseUrl: string | null; tokenUrl: string | null },
): boolean {
  const a = originsOf(before);
  const b = originsOf(after);
  return a.length !== b.length || a.some((origin, i) => origin !== b[i]);
}

export type ServiceUrlProblem = 'invalid' | 'scheme' | 'insecure' | 'credentials';

export type ServiceUrlCheck = { ok: true; url: URL } | { ok: false; problem: ServiceUrlProblem; message: Bilingual };

const PROBLEM_TEXT: Record<ServiceUrlProblem, Bilingual> = {
  invalid: { en: 'enter a full address starting with https://', vi: 'hãy nhập địa chỉ đầy đủ bắt đầu bằng https://' },
  scheme: { en: 'only https:// addresses are allowed', vi: 'chỉ chấp nhận địa chỉ https://' },
  insecure: {
    en: 'http:// is allowed only for this computer (localhost, 127.0.0.1, ::1); use https:// so the token is not sent unencrypted',
    vi: 'http:// chỉ được dùng cho chính máy này (localhost, 127.0.0.1, ::1); hãy dùng https:// để token không bị gửi đi mà không mã hóa',
  },
  credentials: { en: 'must not contain a user name or password', vi: 'không được chứa tên đăng nhập hay mật khẩu' },
};

/**
 * The rule for a service address (base URL, token URL, a link to fetch): an absolute http(s)
 * URL, https unless the host is this computer, no user name or password in it. A good address
 * comes back without fragment and without trailing slashes on its path.
 */
export function checkServiceUrl(raw: string): ServiceUrlCheck {
  const fail = (problem: ServiceUrlProblem): ServiceUrlCheck => ({ ok: false, problem, message: PROBLEM_TEXT[problem] });
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return fail('invalid');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return fail('scheme');
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) return fail('insecure');
  if (url.username || url.password) return fail('credentials');
  url.hash = '';
  if (url.pathname.length > 1 && url.pathname.endsWith('/')) url.pathname = url.pathname.replace(/\/+$/, '');
  return { ok: true, url };
}

/** Failure kinds of a service call (the client's `ApiError.kind`). */
export type NetworkFailureKind =
  'offline' | 'network' | 'timeout' | 'auth' | 'rate_limited' | 'unavailable' | 'rejected' | 'malformed' | 'unknown_outcome' | 'cancelled' | 'config';

/** Kinds that mean the service was not reached at all (an answer of any status means it was). */
export const UNREACHABLE_KINDS: ReadonlySet<NetworkFailureKind> = new Set(['offline', 'network', 'timeout', 'cancelled']);

/** Kinds worth another attempt of an operation that is safe to repeat. */
export const TRANSIENT_KINDS: ReadonlySet<NetworkFailureKind> = new Set(['offline', 'network', 'timeout', 'rate_limited', 'unavailable', 'malformed']);

export function isUnreachableKind(kind: string): boolean {
  return UNREACHABLE_KINDS.has(kind as NetworkFailureKind);
}

/**
 * Whether a failed safe-to-repeat call is worth another attempt: a transient kind, except an
 * address the service does not have (404) or an operation it does not implement (501).
 */
export function isRetryableFailure(kind: string, httpStatus?: number): boolean {
  if (!TRANSIENT_KINDS.has(kind as NetworkFailureKind)) return false;
  return !(kind === 'unavailable' && (httpStatus === 404 || httpStatus === 501));
}

/**
 * Error codes as they cross the contract (`api.<kind>`, and the stopped built-in sandbox) that
 * mean "the service cannot be reached right now" — the screens say "offline", not "failed".
 */
export const UNREACHABLE_CODES: ReadonlySet<string> = new Set(['api.offline', 'api.network', 'api.timeout', 'sandbox_stopped']);

export function isUnreachableCode(code: string | null | undefined): boolean {
  return typeof code === 'string' && UNREACHABLE_CODES.has(code);
}

/** Node/Chromium error codes of a request that never got through: no network right now. */
export const OFFLINE_ERROR_CODES: ReadonlySet<string> = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'ESOCKETTIMEDOUT',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTUNREACH',
  'EPIPE',
]);
