/**
 * Decimal arithmetic for money.
 *
 * Library: decimal.js (MikeMcl/decimal.js, MIT). Chosen because
 *  - it is arbitrary precision: 0.1 + 0.2 is exactly 0.3 and Quantity × UnitPrice never drifts,
 *    unlike binary floating point, which the tax rules forbid for money;
 *  - rounding is explicit and per call (`toDecimalPlaces(dp, mode)`), with every mode we may
 *    need (half-up, half-even, …), so the per-currency rounding rule is visible in code;
 *  - it is small, dependency-free, pure JS (runs in the renderer, main and the CLI alike),
 *    ships its own types, and is long and well maintained (the same author's big.js/bignumber.js
 *    family, used by millions of projects).
 *
 * Everything in common/money uses the private clone `Dec` below, configured once, so a
 * global `Decimal.set(...)` elsewhere cannot change our results.
 */
import Decimal from 'decimal.js';

export type { Decimal };

/** Our own constructor: 60 significant digits, never exponent notation in toString(). */
export const Dec = Decimal.clone({
  precision: 60,
  rounding: Decimal.ROUND_HALF_UP,
  toExpNeg: -60,
  toExpPos: 60,
});

export const ZERO = new Dec(0);
export const HUNDRED = new Dec(100);

/** Rounding rules a setting may choose. `half-up` rounds .5 away from zero (Vietnamese practice). */
export type RoundingMode = 'half-up' | 'half-even' | 'down';

export const ROUNDING: Record<RoundingMode, Decimal.Rounding> = {
  'half-up': Decimal.ROUND_HALF_UP,
  'half-even': Decimal.ROUND_HALF_EVEN,
  down: Decimal.ROUND_DOWN,
};

/**
 * The decimal strings a draft holds: optional sign, digits, optional `.` and fraction.
 * Locale formats (`1.234,5`) are the input widget's business, not the model's.
 */
export const DECIMAL_STRING = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** Result of reading a draft string: blank counts as zero; anything else unreadable is `invalid`. */
interface ParsedDecimal {
  value: Decimal;
  invalid: boolean;
  blank: boolean;
}

/** Reads a draft decimal string without throwing (runs on every keystroke). */
export function readDecimal(text: string | number | null | undefined): ParsedDecimal {
  if (text === null || text === undefined) return { value: ZERO, invalid: false, blank: true };
  if (typeof text === 'number') {
    return Number.isFinite(text) ? { value: new Dec(text), invalid: false, blank: false } : { value: ZERO, invalid: true, blank: false };
  }
  const s = text.trim();
  if (s === '') return { value: ZERO, invalid: false, blank: true };
  if (!DECIMAL_STRING.test(s)) return { value: ZERO, invalid: true, blank: false };
  return { value: new Dec(s), invalid: false, blank: false };
}

/** Plain decimal string without exponent or trailing zeros (`1.50` → `1.5`, `-0` → `0`). */
export function toDecimalString(value: Decimal | number | string): string {
  const d = new Dec(value);
  return d.isZero() ? '0' : d.toFixed();
}

/**
 * Money to a JSON number at the edge (serialising InvoiceData). Exact for up to 15 significant
 * digits (e.g. 13 integer digits + 2 decimals); `fitsJsonNumber` tells the validator when not.
 */
export function toWireNumber(value: Decimal): number {
  const n = Number(value.toFixed());
  return Object.is(n, -0) ? 0 : n;
}

/** True when `value` survives the trip through a JSON number unchanged. */
export function fitsJsonNumber(value: Decimal): boolean {
  const n = Number(value.toFixed());
  return Number.isFinite(n) && new Dec(n).eq(value);
}
