import { checkServiceUrl } from '../../../common/rules/network';
export { defaultTokenUrl } from '../../../common/rules/network';
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

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
