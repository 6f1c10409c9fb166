/**
 * Decimals per currency. Source: docs/invoice-rules.md#amounts-and-rounding ("VND has no minor unit (round to
 * whole đồng); other currencies 2 decimals"). Configurable per call (`CurrencyRounding.decimals`) and per
 * currency (`CurrencyRounding.perCurrency`) for deployments that round JPY/KRW to whole units.
 */
const DEFAULT_CURRENCY_DECIMALS: Readonly<Record<string, number>> = { VND: 0 };
const DEFAULT_DECIMALS = 2;

export interface CurrencyRounding {
  /** Forces this number of decimals whatever the currency. */
  decimals?: number;
  /** Decimals per currency code, merged over the defaults. */
  perCurrency?: Readonly<Record<string, number>>;
}

export function normaliseCurrencyCode(code: string | null | undefined): string {
  const c = (code ?? '').trim().toUpperCase();
  return c === '' ? 'VND' : c;
}

export function currencyDecimals(code: string | null | undefined, options: CurrencyRounding = {}): number {
  if (options.decimals !== undefined) return options.decimals;
  const c = normaliseCurrencyCode(code);
  const fromOptions = options.perCurrency?.[c];
  if (fromOptions !== undefined) return fromOptions;
  return DEFAULT_CURRENCY_DECIMALS[c] ?? DEFAULT_DECIMALS;
}
