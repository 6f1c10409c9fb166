import { checkServiceUrl } from '../../../common/rules/network';
import { apiErrors } from './errors';
import type { Bilingual } from '../../../common/model';

/**
 * Checks a service address (the shared rule in common/rules/network.ts) and turns a refusal
 * into a `config` ApiError naming what the address is for.
 */
export function parseServiceUrl(raw: string, what: Bilingual = { en: 'service address', vi: 'địa chỉ dịch vụ' }): URL {
  const checked = checkServiceUrl(raw);
  if (checked.ok) return checked.url;
  throw apiErrors.config({
    en: `The ${what.en} "${raw.trim()}": ${checked.message.en}.`,
    vi: `${capitalise(what.vi)} "${raw.trim()}": ${checked.message.vi}.`,
  });
}

/** `…/api/integration/invoice` → `…/api/integration/auth/token` (docs/service.md#token). */
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
