/** vi-VN formatting for what the cashier reads: 1.234.567 ₫, 21/11/2026. */
const VN_TIME_ZONE = 'Asia/Ho_Chi_Minh';

export function formatNumber(value: number | bigint | string, locale = 'vi-VN', fractionDigits?: number): string {
  const options: Intl.NumberFormatOptions =
    fractionDigits === undefined ? {} : { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits };
  // Intl accepts decimal strings exactly (no float rounding) for money held as strings.
  return new Intl.NumberFormat(locale, options).format(value as Intl.StringNumericLiteral);
}

export function formatMoney(value: number | bigint | string, currency = 'VND', locale = 'vi-VN'): string {
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    minimumFractionDigits: currency === 'VND' ? 0 : 2,
    maximumFractionDigits: currency === 'VND' ? 0 : 2,
  }).format(value as Intl.StringNumericLiteral);
}

export function formatDate(value: Date | string, locale = 'vi-VN'): string {
  const date = typeof value === 'string' ? new Date(value.length === 10 ? `${value}T00:00:00+07:00` : value) : value;
  return new Intl.DateTimeFormat(locale, { timeZone: VN_TIME_ZONE, day: '2-digit', month: '2-digit', year: 'numeric' }).format(date);
}

export function formatDateTime(value: Date | string, locale = 'vi-VN'): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  return new Intl.DateTimeFormat(locale, {
    timeZone: VN_TIME_ZONE,
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  }).format(date);
}
