/**
 * Amount in words (TotalAmountInWords), Vietnamese by default, English on request.
 *
 *  amountInWords(1230000, 'VND')            → "Một triệu hai trăm ba mươi nghìn đồng"
 *  amountInWords('12.05', 'USD')            → "Mười hai đô la Mỹ năm xu"
 *  amountInWords(-1000, 'VND')              → "Âm một nghìn đồng"
 *  amountInWords(500000, 'VND', {chan:true})→ "Năm trăm nghìn đồng chẵn"
 *  amountInWords('12.05', 'USD', {language:'en'}) → "Twelve US dollars and five cents"
 *
 * The amount is first rounded to the currency's decimals (VND 0, others 2 unless `decimals`
 * says otherwise; half-up). The minor part is read as a whole number of minor units (xu, cents).
 * For a currency without a minor unit but a non-zero fraction (e.g. `decimals: 2` forced on
 * JPY), the fraction is read after "phẩy" / "point" digit by digit.
 */
import Decimal from 'decimal.js';
import { readVietnameseNumber, type VietnameseNumberOptions } from './vietnamese';
import { readEnglishNumber } from './english';
import { currencyWords } from './currencies';

export { readVietnameseNumber, type VietnameseNumberOptions } from './vietnamese';
export { readEnglishNumber } from './english';
export { CURRENCY_WORDS, currencyWords, type CurrencyWords } from './currencies';

export interface AmountInWordsOptions extends VietnameseNumberOptions {
  language?: 'vi' | 'en';
  /** Append "chẵn" (en: "only") when the amount has no minor part. Default false. */
  chan?: boolean;
  /** Decimals to round to first; default VND 0, currencies without a minor unit 0, others 2. */
  decimals?: number;
  /** Capitalise the first letter (default true). */
  capitalise?: boolean;
}

const D = Decimal.clone({ precision: 60, toExpNeg: -60, toExpPos: 60 });

function capitaliseFirst(s: string): string {
  return s.length === 0 ? s : s.charAt(0).toLocaleUpperCase('vi') + s.slice(1);
}

export function amountInWords(amount: Decimal | string | number | bigint, currencyCode = 'VND', options: AmountInWordsOptions = {}): string {
  const cw = currencyWords(currencyCode);
  const lang = options.language ?? 'vi';
  const hasMinorUnit = cw.vi.minor !== null;
  const decimals = options.decimals ?? (hasMinorUnit ? 2 : 0);
  const value = new D(typeof amount === 'bigint' ? amount.toString() : amount).toDecimalPlaces(decimals, Decimal.ROUND_HALF_UP);
  const negative = value.isNegative() && !value.isZero();
  const abs = value.abs();
  const whole = BigInt(abs.trunc().toFixed(0));
  const fracDigits = decimals > 0 ? abs.minus(abs.trunc()).times(new D(10).pow(decimals)).toFixed(0).padStart(decimals, '0') : '';
  const frac = fracDigits === '' ? 0n : BigInt(fracDigits);

  const parts: string[] = [];
  if (lang === 'vi') {
    if (negative) parts.push('âm');
    if (frac === 0n || !hasMinorUnit) {
      parts.push(readVietnameseNumber(whole, options));
      if (frac !== 0n) parts.push('phẩy', readDigitsVi(fracDigits.replace(/0+$/, ''), options));
      parts.push(cw.vi.major);
    } else {
      if (whole > 0n) parts.push(readVietnameseNumber(whole, options), cw.vi.major);
      parts.push(readVietnameseNumber(frac, options), cw.vi.minor!);
    }
    if (options.chan && frac === 0n) parts.push('chẵn');
  } else {
    if (negative) parts.push('minus');
    if (frac === 0n || !hasMinorUnit) {
      parts.push(readEnglishNumber(whole));
      if (frac !== 0n) parts.push('point', readDigitsEn(fracDigits.replace(/0+$/, '')));
      parts.push(whole === 1n && frac === 0n ? cw.en.majorOne : cw.en.major);
    } else {
      if (whole > 0n) parts.push(readEnglishNumber(whole), whole === 1n ? cw.en.majorOne : cw.en.major, 'and');
      parts.push(readEnglishNumber(frac), frac === 1n ? cw.en.minorOne! : cw.en.minor!);
    }
    if (options.chan && frac === 0n) parts.push('only');
  }
  const text = parts.join(' ');
  return options.capitalise === false ? text : capitaliseFirst(text);
}

function readDigitsVi(digits: string, o: VietnameseNumberOptions): string {
  return [...digits].map((d) => readVietnameseNumber(BigInt(d), o)).join(' ');
}

function readDigitsEn(digits: string): string {
  return [...digits].map((d) => readEnglishNumber(BigInt(d))).join(' ');
}
