/**
 * Reading a whole number in Vietnamese. Rules (docs/invoice-rules.md#amount-in-words):
 *  - "mốt" for 1 after a tens digit ≥ 2 (hai mươi mốt; but mười một);
 *  - "lăm" for 5 after any tens digit 1–9 (mười lăm, hai mươi lăm; but linh năm);
 *  - optional "tư" for 4 after a tens digit ≥ 2 (hai mươi tư; always mười bốn, linh bốn);
 *  - "linh" or "lẻ" (a setting) for a zero tens digit with a non-zero unit (một trăm linh năm);
 *  - "không trăm" for zero hundreds inside a number (một nghìn không trăm linh một);
 *  - scales nghìn (or ngàn) / triệu / tỷ, and tỷ repeated for larger numbers: the part above a
 *    billion is read as a number of its own followed by "tỷ" (một nghìn tỷ, một triệu tỷ,
 *    một tỷ tỷ), the part below it continues in full (một tỷ không trăm linh một).
 * Works on BigInt, so there is no upper limit.
 */
export interface VietnameseNumberOptions {
  /** Word for a zero tens digit: "linh" (default) or "lẻ". */
  zeroTens?: 'linh' | 'lẻ';
  /** Word for thousand: "nghìn" (default) or "ngàn". */
  thousand?: 'nghìn' | 'ngàn';
  /** Read 4 after a tens digit ≥ 2 as "tư" (default false: "bốn"). */
  useTu?: boolean;
}

const DIGITS = ['không', 'một', 'hai', 'ba', 'bốn', 'năm', 'sáu', 'bảy', 'tám', 'chín'] as const;
const BILLION = 1_000_000_000n;

function digit(d: number): string {
  return DIGITS[d]!;
}

/** Reads 0..999. `full`: digits above exist, so zero hundreds are read ("không trăm …"). */
function readTriple(n: number, full: boolean, o: Required<VietnameseNumberOptions>, out: string[]): void {
  const h = Math.floor(n / 100);
  const t = Math.floor(n / 10) % 10;
  const u = n % 10;
  const hundredsRead = full || h > 0;
  if (hundredsRead) out.push(digit(h), 'trăm');
  if (t === 0) {
    if (u === 0) return;
    if (hundredsRead) out.push(o.zeroTens);
    out.push(digit(u));
    return;
  }
  if (t === 1) out.push('mười');
  else out.push(digit(t), 'mươi');
  if (u === 0) return;
  if (u === 5) out.push('lăm');
  else if (u === 1 && t >= 2) out.push('mốt');
  else if (u === 4 && t >= 2 && o.useTu) out.push('tư');
  else out.push(digit(u));
}

/** Reads 0 < n < 10^9 (groups triệu, nghìn, units). */
function readBelowBillion(n: number, full: boolean, o: Required<VietnameseNumberOptions>, out: string[]): void {
  const groups = [Math.floor(n / 1_000_000), Math.floor(n / 1000) % 1000, n % 1000];
  const scales = ['triệu', o.thousand, ''];
  let started = full;
  for (let i = 0; i < 3; i++) {
    const g = groups[i]!;
    if (g === 0) continue;
    readTriple(g, started, o, out);
    if (scales[i]) out.push(scales[i]!);
    started = true;
  }
}

function readPositive(n: bigint, full: boolean, o: Required<VietnameseNumberOptions>, out: string[]): void {
  if (n >= BILLION) {
    const high = n / BILLION;
    const low = n % BILLION;
    readPositive(high, full, o, out);
    out.push('tỷ');
    if (low > 0n) readBelowBillion(Number(low), true, o, out);
    return;
  }
  readBelowBillion(Number(n), full, o, out);
}

/** Reads a non-negative whole number, lower case, e.g. 1230000n → "một triệu hai trăm ba mươi nghìn". */
export function readVietnameseNumber(n: bigint, options: VietnameseNumberOptions = {}): string {
  if (n < 0n) throw new RangeError('readVietnameseNumber: negative');
  if (n === 0n) return 'không';
  const o: Required<VietnameseNumberOptions> = {
    zeroTens: options.zeroTens ?? 'linh',
    thousand: options.thousand ?? 'nghìn',
    useTu: options.useTu ?? false,
  };
  const out: string[] = [];
  readPositive(n, false, o, out);
  return out.join(' ');
}
