/**
 * Exact integer arithmetic for test references: decimal strings and JSON numbers turned into
 * BigInt minor units, rounding half away from zero. No decimal.js, no floating point.
 */

/** Decimal string → [units, scale] exactly, e.g. "12.340" → [12340n, 3]. */
export function scaled(text: string): [bigint, number] {
  const t = text.trim();
  if (t === '') return [0n, 0];
  if (/e/i.test(t)) throw new Error(`exponent form ${t}`);
  const neg = t.startsWith('-');
  const body = t.replace(/^[+-]/, '');
  const [i = '', f = ''] = body.split('.');
  const units = BigInt((i || '0') + f);
  return [neg ? -units : units, f.length];
}

export const pow10 = (n: number): bigint => 10n ** BigInt(n);

/** n / d rounded half away from zero (d > 0). */
export function roundDiv(n: bigint, d: bigint): bigint {
  const neg = n < 0n;
  const a = neg ? -n : n;
  let q = a / d;
  if ((a % d) * 2n >= d) q += 1n;
  return neg ? -q : q;
}

/** A JSON number or decimal string as units of 10^-dec, exactly; throws when it has more decimals. */
export function minor(v: number | string | { toFixed(): string }, dec: number): bigint {
  const text = typeof v === 'number' ? JSON.stringify(v) : typeof v === 'string' ? v : v.toFixed();
  const [u, sc] = scaled(text);
  if (sc > dec) {
    const f = pow10(sc - dec);
    if (u % f !== 0n) throw new Error(`${text} has more than ${dec} decimals`);
    return u / f;
  }
  return u * pow10(dec - sc);
}

/** Decimals actually written in a JSON number or decimal string (`1.50` → 1, `2` → 0). */
export function placesOf(v: number | string): number {
  const [u, sc] = scaled(typeof v === 'number' ? JSON.stringify(v) : v);
  let s = sc;
  let x = u < 0n ? -u : u;
  while (s > 0 && x % 10n === 0n) {
    x /= 10n;
    s--;
  }
  return s;
}

/** amount (units of 10^-dec) × rate (decimal string), rounded to `outDec` decimals. */
export function convert(amountUnits: bigint, dec: number, rate: string, outDec: number): bigint {
  const [ru, rs] = scaled(rate);
  return roundDiv(amountUnits * ru * pow10(outDec), pow10(dec + rs));
}
