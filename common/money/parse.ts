/**
 * The one reader (and writer) of numbers a person types: line quantities and prices, discount
 * rates, the TaxRateInfo VAT override, the exchange rate, catalogue CSV prices and the CLI's
 * `words`. Vietnamese first: `.` groups thousands and `,` is the decimal mark (`1.234.567,5`).
 * Plain `25000` and `1.5` are still read where no Vietnamese reading competes.
 *
 * Two styles, chosen by what the number is:
 *  - `thousands` (amounts in a currency without minor unit, i.e. VND, and exchange rates): a `.`
 *    only ever groups thousands. `1.500` is 1500; `25.00` or `1.5` is refused (a mistyped group
 *    would otherwise silently become a few đồng) — a decimal there is written `1,5`. A comma
 *    followed by three digits after one to three others (`25,000`, `120,500`) is how an English
 *    keyboard or spreadsheet groups thousands: read as a decimal it is a price a thousand times too
 *    small, so it is refused with both readings (`25.000` or `25`); `formatTyped` writes such a
 *    fraction with a fourth digit (`25,1250`) so that it reads back.
 *  - `either` (quantities, percentages, amounts in USD and the like): a `.` may also be a decimal
 *    point where it cannot be a thousands group (`1.5`, `12.25`, `0.500`, `1234.5`). A single `.`
 *    followed by exactly three digits (`1.500`) reads both ways (1500 or 1,5) and is refused
 *    with both readings, as is anything else that could be read two ways. Never a guess.
 *
 * `formatTyped` writes what `parseTyped` reads back to the same value (property-tested): in the
 * `either` style a whole number with exactly one group (1 000–999 999) is shown without the dot.
 */
import { DECIMAL_STRING, Dec, toDecimalString, type Decimal } from './decimal';
import { currencyDecimals } from './currency';

export type DotStyle = 'thousands' | 'either';

export interface TypedProblem {
  code: 'number.invalid' | 'number.ambiguous' | 'number.dotGroups' | 'number.negative';
  en: string;
  vi: string;
}

export type TypedNumber =
  | { kind: 'blank' }
  | { kind: 'ok'; value: Decimal; /** Canonical decimal string (`1500`, `1.5`) as drafts store it. */ text: string }
  | ({ kind: 'refused' } & TypedProblem);

export interface ParseTypedOptions {
  dot: DotStyle;
  /** Default true; validation judges negative amounts with its own, located message. */
  allowNegative?: boolean;
}

/** What a field holds decides how a `.` in it is read. */
export function dotStyleFor(what: 'amount' | 'quantity' | 'rate' | 'exchangeRate', currency?: string): DotStyle {
  if (what === 'exchangeRate') return 'thousands';
  if (what === 'amount') return currencyDecimals(currency) === 0 ? 'thousands' : 'either';
  return 'either';
}

const GROUPED = /^[1-9]\d{0,2}(?:\.\d{3})+$/;
/** `25,000`: a thousands group in the English way, or a decimal with three digits in the Vietnamese way. */
const COMMA_GROUP = /^[1-9]\d{0,2},\d{3}$/;

function refused(code: TypedProblem['code'], en: string, vi: string): TypedNumber {
  return { kind: 'refused', code, en, vi };
}

function ok(negative: boolean, intDigits: string, fraction: string): TypedNumber {
  const body = `${intDigits === '' ? '0' : intDigits}${fraction ? `.${fraction}` : ''}`;
  const value = new Dec(negative ? `-${body}` : body);
  return { kind: 'ok', value, text: toDecimalString(value) };
}

/** Reads what a person typed; blank is `blank`, anything unclear is `refused` with the reason. */
export function parseTyped(input: string, options: ParseTypedOptions): TypedNumber {
  const raw = input.trim();
  // Spaces (also the no-break spaces of copied figures) only ever group digits.
  let s = raw.replace(/[\s\u00a0\u202f]/g, '');
  if (s === '') return { kind: 'blank' };
  let negative = false;
  if (/^[-−+]/.test(s)) {
    negative = s[0] !== '+';
    s = s.slice(1);
  }
  if (negative && options.allowNegative === false) {
    return refused('number.negative', `"${raw}": a negative number is not allowed here.`, `"${raw}": không được nhập số âm ở đây.`);
  }
  const notNumber = () =>
    refused(
      'number.invalid',
      `"${raw}" is not a number. Write it like 25.000 or 1,5 (dot groups thousands, comma is the decimal mark).`,
      `"${raw}" không phải là số. Hãy nhập như 25.000 hoặc 1,5 (dấu chấm ngăn cách hàng nghìn, dấu phẩy là dấu thập phân).`,
    );
  if (!/^[\d.,]+$/.test(s) || !/\d/.test(s)) return notNumber();

  const commas = s.split(',').length - 1;
  if (commas > 1) {
    return refused(
      'number.invalid',
      `"${raw}" has several commas; a comma is the decimal mark. Group thousands with dots: 1.234.567.`,
      `"${raw}" có nhiều dấu phẩy; dấu phẩy là dấu thập phân. Ngăn cách hàng nghìn bằng dấu chấm: 1.234.567.`,
    );
  }
  if (commas === 1) {
    const [whole, fraction] = s.split(',') as [string, string];
    if (fraction.includes('.')) {
      return refused(
        'number.invalid',
        `"${raw}": a dot after the comma. Write 1.234,5 (dot groups thousands, comma is the decimal mark).`,
        `"${raw}": có dấu chấm sau dấu phẩy. Hãy nhập 1.234,5 (dấu chấm ngăn cách hàng nghìn, dấu phẩy là dấu thập phân).`,
      );
    }
    if (whole.includes('.')) {
      if (!GROUPED.test(whole)) return badGroups(raw);
      return ok(negative, whole.replace(/\./g, ''), fraction);
    }
    if (options.dot === 'thousands' && COMMA_GROUP.test(s)) return commaReadsTwoWays(raw, `${negative ? '-' : ''}${whole}`, fraction);
    return ok(negative, whole, fraction);
  }
  const dots = s.split('.').length - 1;
  if (dots === 0) return ok(negative, s, '');
  if (dots > 1) return GROUPED.test(s) ? ok(negative, s.replace(/\./g, ''), '') : badGroups(raw);
  const [head, tail] = s.split('.') as [string, string];
  if (options.dot === 'thousands') {
    if (GROUPED.test(s)) return ok(negative, head + tail, '');
    const asDecimal = `${head || '0'},${tail}`;
    const asThousands = /^[1-9]/.test(head) && head.length <= 3 ? `${head}.${tail.padEnd(3, '0').slice(0, 3)}` : null;
    const orEn = asThousands ? `${asThousands} for thousands or ` : '';
    const orVi = asThousands ? `${asThousands} nếu là hàng nghìn, hoặc ` : '';
    return refused(
      'number.dotGroups',
      `"${raw}": in this field a dot groups thousands, and "${tail}" is not a group of three digits. Write ${orEn}${asDecimal} for a decimal.`,
      `"${raw}": ở ô này dấu chấm ngăn cách hàng nghìn, mà "${tail}" không phải nhóm ba chữ số. Nhập ${orVi}${asDecimal} nếu là số thập phân.`,
    );
  }
  if (GROUPED.test(s)) {
    const thousands = `${head}${tail}`;
    const decimal = `${head},${tail.replace(/0+$/, '') || '0'}`;
    return refused(
      'number.ambiguous',
      `"${raw}" could be read as ${thousands} (dot grouping thousands) or as ${decimal} (dot as decimal point). Type ${thousands} or ${decimal}.`,
      `"${raw}" có thể hiểu là ${thousands} (dấu chấm ngăn cách hàng nghìn) hoặc ${decimal} (dấu chấm thập phân). Hãy nhập ${thousands} hoặc ${decimal}.`,
    );
  }
  return ok(negative, head, tail);
}

function commaReadsTwoWays(raw: string, whole: string, fraction: string): TypedNumber {
  // Both readings written as the app writes them, so each one typed back reads as meant.
  const thousands = formatTyped(`${whole}${fraction}`, { dot: 'thousands' });
  const decimal = formatTyped(`${whole}.${fraction}`, { dot: 'thousands' });
  return refused(
    'number.ambiguous',
    `"${raw}" could be read as ${thousands} (the comma grouping thousands) or as ${whole},${fraction} (the comma as decimal mark: a thousand times smaller). Type ${thousands} or ${decimal}.`,
    `"${raw}" có thể hiểu là ${thousands} (dấu phẩy ngăn cách hàng nghìn) hoặc ${whole},${fraction} (dấu phẩy thập phân: nhỏ hơn một nghìn lần). Hãy nhập ${thousands} hoặc ${decimal}.`,
  );
}

function badGroups(raw: string): TypedNumber {
  return refused(
    'number.invalid',
    `"${raw}": the dots do not group thousands (three digits after each dot). Write it like 1.234.567 or 1234567.`,
    `"${raw}": dấu chấm phải ngăn cách từng nhóm ba chữ số. Hãy nhập như 1.234.567 hoặc 1234567.`,
  );
}

function group(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
}

export interface FormatTypedOptions {
  dot: DotStyle;
  /** Fixed number of decimals (amounts); without it the value's own digits, no trailing zeros. */
  decimals?: number;
}

/** vi-VN text of a value that `parseTyped` with the same style reads back to the same value. */
export function formatTyped(value: Decimal | string, options: FormatTypedOptions): string {
  const d = new Dec(value);
  const text = options.decimals === undefined ? toDecimalString(d) : d.toFixed(options.decimals);
  const negative = text.startsWith('-');
  const [whole, fraction = ''] = (negative ? text.slice(1) : text).split('.') as [string, string?];
  // One group and no comma would read two ways in the `either` style: leave it ungrouped.
  const oneGroup = whole.length > 3 && whole.length <= 6 && fraction === '';
  const shownWhole = options.dot === 'either' && oneGroup ? whole : group(whole);
  // `25,125` would read two ways in the `thousands` style: a fourth digit makes it a decimal.
  const shownFraction = options.dot === 'thousands' && COMMA_GROUP.test(`${whole},${fraction}`) ? `${fraction}0` : fraction;
  const sign = negative && /[1-9]/.test(whole + fraction) ? '-' : '';
  return `${sign}${shownWhole}${shownFraction ? `,${shownFraction}` : ''}`;
}

/**
 * A draft field that holds text the parser refused keeps it (nothing typed is lost) behind this
 * mark, so the model never reads it as a number: `1.500` refused as a quantity is stored
 * `?1.500`, which `readDecimal` calls invalid while `1.5` stays the canonical 1.5.
 */
export const REFUSED_MARK = '?';

export function markRefused(raw: string): string {
  return `${REFUSED_MARK}${raw}`;
}

/** The typed text behind a refused field value, or null for an ordinary value. */
export function refusedText(stored: string): string | null {
  return stored.startsWith(REFUSED_MARK) ? stored.slice(REFUSED_MARK.length) : null;
}

/** What a draft field stores for what was typed: canonical, blank, or the refused text marked. */
export function storedFromTyped(input: string, options: ParseTypedOptions): string {
  const r = parseTyped(input, options);
  return r.kind === 'ok' ? r.text : r.kind === 'blank' ? '' : markRefused(input);
}

/** What a field shows for a stored value: formatted when it is a number, else as it was typed. */
export function shownFromStored(stored: string, options: FormatTypedOptions): string {
  const refusedRaw = refusedText(stored);
  if (refusedRaw !== null) return refusedRaw;
  if (!DECIMAL_STRING.test(stored.trim())) return stored;
  return formatTyped(stored.trim(), options);
}
