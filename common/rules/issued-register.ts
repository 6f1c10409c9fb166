import type { EmailInput } from '../calls/emails';
import type { IssuedInvoice } from '../calls/register';
import type { InvoiceKind } from '../model/kind';
import type { Bilingual } from '../model/text';
import { isCalendarDate, vietnamToday } from './date';
import { isEmail } from './email';

/**
 * What the register screen applies: the date ranges a cashier picks, dates typed dd/mm/yyyy,
 * the status of an issued invoice in words, and what a selection becomes for the download
 * engine and the email queue.
 */

export const RANGE_PRESETS = ['today', 'week', 'month', 'custom'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];
export interface DayRange {
  from: string;
  to: string;
}

const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Today, this week (from Monday) or this month (from the 1st), each up to today, in Vietnam. */
export function presetRange(preset: Exclude<RangePreset, 'custom'>, now: Date = new Date()): DayRange {
  const today = vietnamToday(now);
  if (preset === 'today') return { from: today, to: today };
  if (preset === 'month') return { from: `${today.slice(0, 8)}01`, to: today };
  const ms = Date.parse(`${today}T00:00:00Z`);
  const sinceMonday = (new Date(ms).getUTCDay() + 6) % 7;
  return { from: dayOf(ms - sinceMonday * DAY_MS), to: today };
}

/** `2026-11-26` → `26/11/2026`. */
export function dayText(day: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : day;
}

/** A date typed as d/m/yyyy (or with `.` or `-`) → `YYYY-MM-DD`; null when it is not a real date. */
export function parseDayText(text: string): string | null {
  const m = /^\s*(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})\s*$/.exec(text);
  if (!m) return null;
  const day = `${m[3]}-${m[2]!.padStart(2, '0')}-${m[1]!.padStart(2, '0')}`;
  return isCalendarDate(day) ? day : null;
}

/** A custom range from two typed dates: the range, or which end is wrong. */
export function customRange(fromText: string, toText: string): { ok: true; range: DayRange } | { ok: false; field: 'from' | 'to'; reason: 'date' | 'order' } {
  const from = parseDayText(fromText);
  if (!from) return { ok: false, field: 'from', reason: 'date' };
  const to = parseDayText(toText);
  if (!to) return { ok: false, field: 'to', reason: 'date' };
  if (from > to) return { ok: false, field: 'to', reason: 'order' };
  return { ok: true, range: { from, to } };
}

export type TaxStatusKey = 'notSent' | 'sent' | 'accepted' | 'rejected' | 'noticeInvalid' | 'pending';
export type RelationKey = 'cancelled' | 'replacement' | 'adjustment' | 'replaced' | 'adjusted';

const TAX_WORDS: Record<TaxStatusKey, Bilingual> = {
  notSent: { en: 'Not sent to the tax authority', vi: 'Chưa gửi cơ quan thuế' },
  sent: { en: 'Sent to the tax authority', vi: 'Đã gửi cơ quan thuế' },
  accepted: { en: 'Accepted by the tax authority', vi: 'Cơ quan thuế đã chấp nhận' },
  rejected: { en: 'Rejected by the tax authority', vi: 'Cơ quan thuế từ chối' },
  noticeInvalid: { en: 'Tax authority: notice not valid', vi: 'Cơ quan thuế: thông báo không hợp lệ' },
  pending: { en: 'Waiting for the tax authority', vi: 'Chờ kết quả từ cơ quan thuế' },
};
const RELATION_WORDS: Record<RelationKey, Bilingual> = {
  cancelled: { en: 'Cancelled', vi: 'Đã hủy' },
  replacement: { en: 'Replacement', vi: 'Hóa đơn thay thế' },
  adjustment: { en: 'Adjustment', vi: 'Hóa đơn điều chỉnh' },
  replaced: { en: 'Replaced', vi: 'Đã bị thay thế' },
  adjusted: { en: 'Adjusted', vi: 'Đã bị điều chỉnh' },
};
const TAX_BY_CODE: Record<number, TaxStatusKey> = { 0: 'notSent', 1: 'sent', 2: 'accepted', 3: 'rejected', 4: 'noticeInvalid' };
const RELATION_BY_CODE: Record<number, RelationKey> = { 2: 'cancelled', 3: 'replacement', 5: 'adjustment', 7: 'replaced', 8: 'adjusted' };

export interface IssuedStatus {
  tax: TaxStatusKey;
  relation: RelationKey | null;
  /** The words of both, tax authority first. */
  words: Bilingual[];
}

/**
 * An issued invoice's status in words, from SendTaxStatus (the tax authority's answer) and
 * EInvoiceStatus (replaced, adjusted…); a correction not yet told by the service is named by its
 * reference type, an original corrected here by the link.
 */
export function issuedStatus(inv: Pick<IssuedInvoice, 'sendTaxStatus' | 'eInvoiceStatus' | 'referenceType' | 'correctedBy'>): IssuedStatus {
  const tax = (inv.sendTaxStatus !== null && TAX_BY_CODE[inv.sendTaxStatus]) || 'pending';
  let relation: RelationKey | null = (inv.eInvoiceStatus !== null && RELATION_BY_CODE[inv.eInvoiceStatus]) || null;
  if (!relation && inv.referenceType === 1) relation = 'replacement';
  if (!relation && inv.referenceType === 2) relation = 'adjustment';
  const words = [TAX_WORDS[tax], ...(relation ? [RELATION_WORDS[relation]] : [])];
  return { tax, relation, words };
}

/** Whether a row offers "adjust" and "replace" (a replaced or cancelled invoice is corrected through its replacement). */
export function correctionsAllowed(inv: Pick<IssuedInvoice, 'eInvoiceStatus'>): { adjust: boolean; replace: boolean } {
  const gone = inv.eInvoiceStatus === 2 || inv.eInvoiceStatus === 7;
  return { adjust: !gone, replace: !gone && inv.eInvoiceStatus !== 8 };
}

/** The selection as download jobs: one per kind (a job downloads one kind). */
export function downloadGroups(rows: readonly Pick<IssuedInvoice, 'transactionId' | 'kind'>[]): Array<{ kind: InvoiceKind; ids: string[] }> {
  const groups = new Map<InvoiceKind, string[]>();
  for (const r of rows) groups.set(r.kind, [...(groups.get(r.kind) ?? []), r.transactionId]);
  return [...groups].map(([kind, ids]) => ({ kind, ids }));
}

/** The selection as email-queue entries to each buyer's address; rows without a usable address are left out and named. */
export function buyerEmails(rows: readonly IssuedInvoice[]): { entries: EmailInput[]; missing: IssuedInvoice[] } {
  const entries: EmailInput[] = [];
  const missing: IssuedInvoice[] = [];
  for (const r of rows) {
    const to = r.buyerEmail
      .split(/[;,]/)
      .map((a) => a.trim())
      .filter(isEmail);
    if (to.length === 0) missing.push(r);
    else entries.push({ transactionId: r.transactionId, receiverName: r.buyerName, receiverEmail: to.join(';'), kind: r.kind });
  }
  return { entries, missing };
}

/** `1C26TAA 00000012` — how a cashier names an invoice. */
export function invoiceName(inv: { invSeries: string; invNo: string }): string {
  return `${inv.invSeries} ${inv.invNo}`.trim();
}
