import { thousandGroups } from './groups';

/**
 * Reading a whole number in English (short scale, no "and": "one hundred five",
 * "twenty-one", "one million two hundred thirty thousand"). Works on BigInt.
 */
const ONES = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
] as const;
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'] as const;
const SCALES = [
  '',
  'thousand',
  'million',
  'billion',
  'trillion',
  'quadrillion',
  'quintillion',
  'sextillion',
  'septillion',
  'octillion',
  'nonillion',
  'decillion',
] as const;

function readTriple(n: number, out: string[]): void {
  const h = Math.floor(n / 100);
  const rest = n % 100;
  if (h > 0) out.push(ONES[h]!, 'hundred');
  if (rest === 0) return;
  if (rest < 20) out.push(ONES[rest]!);
  else {
    const t = Math.floor(rest / 10);
    const u = rest % 10;
    out.push(u === 0 ? TENS[t]! : `${TENS[t]!}-${ONES[u]!}`);
  }
}

export function readEnglishNumber(n: bigint): string {
  if (n < 0n) throw new RangeError('readEnglishNumber: negative');
  if (n === 0n) return 'zero';
  const groups = thousandGroups(n);
  if (groups.length > SCALES.length) throw new RangeError('readEnglishNumber: too large');
  const out: string[] = [];
  for (let i = groups.length - 1; i >= 0; i--) {
    const g = groups[i]!;
    if (g === 0) continue;
    readTriple(g, out);
    if (SCALES[i]) out.push(SCALES[i]!);
  }
  return out.join(' ');
}
