/**
 * Email address lists. Source: docs/invoice-rules.md#email-addresses — several addresses in one field are separated by
 * `;`; accept `,` from users and normalise to `;`. BuyerEmail holds a single address.
 */

/** Pragmatic address check: local@domain.tld, no spaces, one @, a dot in the domain, sane labels. */
const EMAIL = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export function isEmail(address: string): boolean {
  const a = address.trim();
  if (a.length > 254 || !EMAIL.test(a)) return false;
  const local = a.slice(0, a.lastIndexOf('@'));
  if (local.length > 64 || local.startsWith('.') || local.endsWith('.') || local.includes('..')) return false;
  const tld = a.slice(a.lastIndexOf('.') + 1);
  return /^[A-Za-z]{2,}$|^xn--[A-Za-z0-9-]+$/.test(tld);
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
  const seen = new Set<string>();
  const addresses: string[] = [];
  for (const part of (input ?? '').split(/[;,]/)) {
    const a = part.trim();
    if (a === '' || seen.has(a.toLowerCase())) continue;
    seen.add(a.toLowerCase());
    addresses.push(a);
  }
  const valid: string[] = [];
  const invalid: string[] = [];
  for (const a of addresses) (isEmail(a) ? valid : invalid).push(a);
  return { addresses, invalid, normalised: valid.join(';') };
}
