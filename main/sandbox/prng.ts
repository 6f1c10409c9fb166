/** Small seeded PRNG (mulberry32) and helpers. The sandbox never uses Math.random. */

export type Rng = () => number;

/** 32-bit FNV-1a hash of a string: derives independent seeds (per operation, per invoice). */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: fast, good enough for test data, fully reproducible from the seed. */
export function createRng(seed: number | string): Rng {
  let a = (typeof seed === 'string' ? hash32(seed) : seed >>> 0) || 0x9e3779b9;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randInt(rng: Rng, min: number, maxInclusive: number): number {
  return min + Math.floor(rng() * (maxInclusive - min + 1));
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
  const item = items[Math.floor(rng() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

const HEX = '0123456789abcdef';
/** A UUID-shaped (version 4 layout) identifier drawn from the PRNG. */
export function uuid(rng: Rng): string {
  let out = '';
  for (let i = 0; i < 32; i++) {
    let digit = Math.floor(rng() * 16);
    if (i === 12) digit = 4;
    if (i === 16) digit = (digit & 0x3) | 0x8;
    out += HEX[digit];
    if (i === 7 || i === 11 || i === 15 || i === 19) out += '-';
  }
  return out;
}

const ALNUM = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** A TransactionID-like lookup code: 10 upper-case letters and digits (no 0/O/1/I). */
export function lookupCode(rng: Rng, length = 10): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALNUM[Math.floor(rng() * ALNUM.length)];
  return out;
}
