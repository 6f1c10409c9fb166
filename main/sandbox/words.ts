import Decimal from 'decimal.js';
import { thousandGroups } from '../../common/words/groups';

/**
 * Amount in words for the sandbox's rendered invoices (the Vietnamese conventions of
 * docs/invoice-rules.md#amount-in-words: "mốt", "lăm", "linh", "không trăm", nghìn/triệu/tỷ).
 * The app's own implementation lives in common/words; the sandbox keeps a small independent
 * reading (so a bug in the app's is not mirrored here) and shares only the digit grouping.
 */
const DIGITS = ['không', 'một', 'hai', 'ba', 'bốn', 'năm', 'sáu', 'bảy', 'tám', 'chín'] as const;
const SCALES = ['', 'nghìn', 'triệu', 'tỷ', 'nghìn tỷ', 'triệu tỷ'] as const;

function digit(n: number): string {
  return DIGITS[n] ?? '';
}

function readTriple(n: number, full: boolean): string[] {
  const h = Math.floor(n / 100);
  const t = Math.floor((n % 100) / 10);
  const u = n % 10;
  const out: string[] = [];
  if (full || h > 0) out.push(digit(h), 'trăm');
  if (t === 0) {
    if (u > 0 && (full || h > 0)) out.push('linh');
  } else if (t === 1) out.push('mười');
  else out.push(digit(t), 'mươi');
  if (u === 1 && t >= 2) out.push('mốt');
  else if (u === 5 && t >= 1) out.push('lăm');
  else if (u > 0) out.push(digit(u));
  return out;
}

function integerInWords(value: bigint): string {
  if (value === 0n) return 'không';
  const groups = thousandGroups(value);
  const words: string[] = [];
  for (let i = groups.length - 1; i >= 0; i--) {
    const g = groups[i] ?? 0;
    if (g === 0) continue;
    words.push(...readTriple(g, i < groups.length - 1));
    const scale = SCALES[i] ?? '';
    if (scale) words.push(scale);
  }
  return words.join(' ');
}

export function amountInWords(amount: Decimal.Value, currency = 'VND'): string {
  const d = new Decimal(amount).abs();
  const whole = BigInt(d.floor().toFixed(0));
  let text: string;
  if (currency === 'VND') text = `${integerInWords(whole)} đồng`;
  else {
    const cents = Number(d.minus(d.floor()).times(100).toDecimalPlaces(0).toFixed(0));
    const unit = currency === 'USD' ? 'đô la Mỹ' : currency;
    text = `${integerInWords(whole)} ${unit}` + (cents > 0 ? ` và ${integerInWords(BigInt(cents))} xu` : '');
  }
  return text.charAt(0).toUpperCase() + text.slice(1);
}
