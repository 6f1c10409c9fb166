/**
 * Dates. Source: docs/invoice-rules.md#invoice-date-in-vietnam — InvDate is a calendar date in Vietnam (UTC+7, no daylight saving):
 * derive "today" in that zone, never in UTC or the machine's zone.
 */
const VIETNAM_OFFSET_MINUTES = 7 * 60;

/** `YYYY-MM-DD` of `now` (injected; default the current instant) in Vietnam. */
export function vietnamToday(now: Date = new Date()): string {
  return new Date(now.getTime() + VIETNAM_OFFSET_MINUTES * 60_000).toISOString().slice(0, 10);
}

/** True for a real calendar date written `YYYY-MM-DD` (2025-02-29 is false). */
export function isCalendarDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1) return false;
  const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  return d <= days;
}
