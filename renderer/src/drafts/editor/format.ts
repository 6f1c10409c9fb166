import type { Decimal } from './money';

const cache = new Map<string, Intl.NumberFormat>();

function formatter(decimals: number): Intl.NumberFormat {
  const key = String(decimals);
  let f = cache.get(key);
  if (!f) {
    f = new Intl.NumberFormat('vi-VN', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
    cache.set(key, f);
  }
  return f;
}

/** 1.234.567 (vi-VN grouping) from an exact decimal; one cached Intl formatter per precision. */
export function formatAmount(value: Decimal, decimals: number): string {
  return formatter(decimals).format(value.toFixed(decimals) as Intl.StringNumericLiteral);
}
