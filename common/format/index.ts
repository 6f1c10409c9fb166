/**
 * What people read, written one way for the screens and the command line: sizes, time left,
 * dates and times in Vietnam's time zone. Pure (Intl only), so the CLI and the renderer share it.
 */
export type FormatLang = 'vi' | 'en';

const VN_TIME_ZONE = 'Asia/Ho_Chi_Minh';
const LOCALES: Record<FormatLang, string> = { vi: 'vi-VN', en: 'en-GB' };

const numbers = new Map<string, Intl.NumberFormat>();
function numberFormat(lang: FormatLang, digits: number): Intl.NumberFormat {
  const id = `${lang}|${digits}`;
  let f = numbers.get(id);
  if (!f) numbers.set(id, (f = new Intl.NumberFormat(LOCALES[lang], { minimumFractionDigits: digits, maximumFractionDigits: digits })));
  return f;
}

/** A count as people read it: 1.234 in Vietnamese, 1,234 in English. */
export function formatCount(n: number, lang: FormatLang = 'vi'): string {
  return numberFormat(lang, 0).format(n);
}

/** 512 B, 1,5 KB, 3,2 MB (binary units, one decimal; the CLI writes English: 1.5 KB). */
export function formatBytes(n: number, lang: FormatLang = 'vi'): string {
  if (n < 1024) return `${formatCount(n, lang)} B`;
  if (n < 1048576) return `${numberFormat(lang, 1).format(n / 1024)} KB`;
  return `${numberFormat(lang, 1).format(n / 1048576)} MB`;
}

/** Time left as m:ss, or h:mm:ss from an hour on; `unknown` when there is no estimate. */
export function formatEta(seconds: number | null, unknown = '–'): string {
  if (seconds === null || !Number.isFinite(seconds)) return unknown;
  const t = Math.max(0, Math.round(seconds));
  const ss = String(t % 60).padStart(2, '0');
  if (t < 3600) return `${Math.floor(t / 60)}:${ss}`;
  return `${Math.floor(t / 3600)}:${String(Math.floor((t % 3600) / 60)).padStart(2, '0')}:${ss}`;
}

const cache = new Map<string, Intl.DateTimeFormat>();
function formatter(lang: FormatLang, key: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const id = `${lang}|${key}`;
  let f = cache.get(id);
  if (!f) cache.set(id, (f = new Intl.DateTimeFormat(LOCALES[lang], { timeZone: VN_TIME_ZONE, ...options })));
  return f;
}

/** A calendar date (`2026-11-21`) is a day in Vietnam; anything else is an instant. */
function toDate(value: Date | string): Date {
  if (typeof value !== 'string') return value;
  return new Date(value.length === 10 ? `${value}T00:00:00+07:00` : value);
}

/** 21/11/2026 */
export function formatDate(value: Date | string, lang: FormatLang = 'vi'): string {
  return formatter(lang, 'date', { day: '2-digit', month: '2-digit', year: 'numeric' }).format(toDate(value));
}

/** 21/11/2026 14:05 */
export function formatDateTime(value: Date | string, lang: FormatLang = 'vi'): string {
  return formatter(lang, 'datetime', { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
    toDate(value),
  );
}

/** 14:05:09 */
export function formatTime(value: Date | string, lang: FormatLang = 'vi'): string {
  return formatter(lang, 'time', { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).format(toDate(value));
}

/**
 * Each format of `lang` made once, one call each. The first Intl format of a process is slow (ICU
 * loads its locale data: 36–73 ms in Chromium here), and that data is the process's: made on any
 * thread, the others' first formats are quick.
 */
export function formatWarmUps(lang: FormatLang): Array<() => void> {
  const now = new Date();
  return [() => formatCount(0, lang), () => formatBytes(2048, lang), () => formatDate(now, lang), () => formatDateTime(now, lang), () => formatTime(now, lang)];
}
