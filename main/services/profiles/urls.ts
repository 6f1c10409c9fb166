import { AppError } from '../../../common/errors';
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
