import { AppError } from '../../../common/errors';
import { defaultTokenUrl } from '../api/base-url';
import { checkServiceUrl as checkUrl, isLoopbackHost, SERVICE_PRESETS } from '../../../common/rules/network';

export { isLoopbackHost };
/** The public deployments; offered as presets, never assumed. */
export const PRESETS = SERVICE_PRESETS;

const FIELD_LABEL = {
  baseUrl: { en: 'Service address (base URL)', vi: 'Địa chỉ dịch vụ (base URL)' },
  tokenUrl: { en: 'Token address (token URL)', vi: 'Địa chỉ lấy token (token URL)' },
} as const;

/**
 * Checks a service URL typed by a user (the rule in common/rules/network.ts) and names the
 * field when it is refused. Returns it normalised (no trailing slash, no query/hash).
 */
export function checkServiceUrl(field: keyof typeof FIELD_LABEL, raw: string): string {
  const label = FIELD_LABEL[field];
  const checked = checkUrl(raw);
  if (!checked.ok) {
    const { en, vi } = checked.message;
    throw new AppError(
      'profile_url_invalid',
      { en: `${label.en}: ${en}`, vi: `${label.vi}: ${vi}` },
      { issues: [{ path: field, message: `${label.en}: ${en}`, messageVi: `${label.vi}: ${vi}` }] },
    );
  }
  const url = checked.url;
  url.search = '';
  return url.toString().replace(/\/+$/, '');
}

/** Where a profile's token and password go: the service's origin and the token operation's. */
function originsOf(urls: { baseUrl: string | null; tokenUrl: string | null }): string[] {
  if (!urls.baseUrl) return [];
  const base = new URL(urls.baseUrl);
  const token = urls.tokenUrl ? new URL(urls.tokenUrl) : defaultTokenUrl(base);
  return [base.origin, token.origin];
}

/**
 * True when an edit moves the profile to another scheme, host or port (of the service or of
 * its token address): its token and remembered password must not follow. A path change on the
 * same origin keeps them.
 */
export function originChanged(before: { baseUrl: string | null; tokenUrl: string | null }, after: { baseUrl: string | null; tokenUrl: string | null }): boolean {
  const a = originsOf(before);
  const b = originsOf(after);
  return a.length !== b.length || a.some((origin, i) => origin !== b[i]);
}
