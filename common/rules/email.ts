/**
 * Email address lists. Source: docs/invoice-rules.md#email-addresses — several addresses in one field are separated by
 * `;`; accept `,` from users and normalise to `;`. BuyerEmail holds a single address.
 */

/** Pragmatic address check: local@domain.tld, no spaces, one @, a dot in the domain, sane labels. */
const EMAIL = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

const SEPARATORS = /[;,]/;
const TLD = /^[A-Za-z]{2,}$|^xn--[A-Za-z0-9-]+$/;

export function isEmail(address: string): boolean {
  const a = address.trim();
  if (a.length > 254 || !EMAIL.test(a)) return false;
  const at = a.lastIndexOf('@');
  if (at > 64 || a.charCodeAt(0) === 46 /* . */ || a.charCodeAt(at - 1) === 46) return false;
  if (a.lastIndexOf('..', at) !== -1) return false;
  return TLD.test(a.slice(a.lastIndexOf('.') + 1));
}

interface EmailList {
  /** Every non-empty entry, trimmed, in order, duplicates (case-insensitive) removed. */
  addresses: string[];
  /** Entries that are not valid addresses. */
  invalid: string[];
  /** The valid addresses joined with `;`, as the service expects. */
  normalised: string;
}

export function splitEmails(input: string | null | undefined): EmailList {
  const addresses: string[] = [];
  const invalid: string[] = [];
  if (!input) return { addresses, invalid, normalised: '' };
  // Lists hold a few addresses: a linear look for repeats is cheaper than a Set (a CSV import checks
  // 100 000 rows); a long list gets a Set, so a hostile cell of many addresses stays linear.
  const lower: string[] = [];
  let seen: Set<string> | null = null;
  let normalised = '';
  // One address, as in most cells, is not split.
  const parts = input.indexOf(';') === -1 && input.indexOf(',') === -1 ? [input] : input.split(SEPARATORS);
  for (const part of parts) {
    const a = part.trim();
    if (a === '') continue;
    const key = a.toLowerCase();
    if (seen ? seen.has(key) : lower.includes(key)) continue;
    if (seen) seen.add(key);
    else if (lower.push(key) > 16) seen = new Set(lower);
    addresses.push(a);
    if (isEmail(a)) normalised = normalised === '' ? a : `${normalised};${a}`;
    else invalid.push(a);
  }
  return { addresses, invalid, normalised };
}
