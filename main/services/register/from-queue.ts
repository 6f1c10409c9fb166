import type { DatabaseSync } from 'node:sqlite';
import type { InvoiceKind } from '../../../common/model';
import { toDecimalString } from '../../../common/money';
import { originalOf, upsertRows, type RegisterRow } from './repository';
import { activeScope, rememberScope } from './service-key';
import { prepared } from '../store/statements';

interface QueueRow {
  profile_id: string;
  transaction_id: string;
  ref_id: string;
  inv_series: string;
  inv_no: string | null;
  inv_date: string;
  kind: InvoiceKind;
  buyer_name: string;
  buyer_email: string;
  currency: string;
  total: string;
  invoice_code: string | null;
  payload: string | null;
}

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');
const amount = (v: unknown): string => (typeof v === 'number' || (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)) ? toDecimalString(v) : '0');

/**
 * Called by the issue queue inside the transaction that settles invoices as issued: copies them
 * into the register (one row per TransactionID; again is harmless), so they are listed at once,
 * before any sync, and a correction is linked to its original. They belong to the profile's
 * service as it is now (the queue issued them through it).
 */
export function recordIssuedFromQueue(db: DatabaseSync, queueIds: readonly number[], at: string): void {
  if (queueIds.length === 0) return;
  const read = prepared(
    db,
    `SELECT q.profile_id, q.transaction_id, q.ref_id, q.inv_series, q.inv_no, q.inv_date, q.kind, q.buyer_name, q.buyer_email, q.currency, q.total,
       q.invoice_code, p.payload
     FROM issue_queue q LEFT JOIN issue_payloads p ON p.queue_id = q.id
     WHERE q.id = ? AND q.state = 'issued' AND q.transaction_id IS NOT NULL`,
  );
  const byProfile = new Map<string, RegisterRow[]>();
  for (const id of queueIds) {
    const q = read.get(id) as QueueRow | undefined;
    if (!q) continue;
    let p: Record<string, unknown> = {};
    try {
      p = q.payload ? (JSON.parse(q.payload) as Record<string, unknown>) : {};
    } catch {
      // The payload was checked when frozen; an unreadable one leaves the optional fields empty.
    }
    const referenceType = Number(p.ReferenceType) === 1 || Number(p.ReferenceType) === 2 ? Number(p.ReferenceType) : 0;
    const row: RegisterRow = {
      transactionId: q.transaction_id,
      refId: q.ref_id,
      invSeries: q.inv_series,
      invNo: q.inv_no ?? '',
      invDate: q.inv_date.slice(0, 10),
      kind: q.kind,
      buyerName: q.buyer_name || text(p.BuyerFullName),
      buyerTaxCode: text(p.BuyerTaxCode),
      buyerEmail: q.buyer_email || text(p.BuyerEmail),
      currency: q.currency,
      total: q.total,
      totalWithoutVat: amount(p.TotalAmountWithoutVAT ?? p.TotalAmountWithoutVATOC),
      totalVat: amount(p.TotalVATAmount ?? p.TotalVATAmountOC),
      invoiceCode: q.invoice_code,
      sendTaxStatus: q.kind === 'withCode' ? null : 0,
      eInvoiceStatus: referenceType === 1 ? 3 : referenceType === 2 ? 5 : 1,
      referenceType,
      org: referenceType
        ? originalOf({ templateNo: text(p.OrgInvTemplateNo), series: text(p.OrgInvSeries), invNo: text(p.OrgInvNo), date: text(p.OrgInvDate) || null })
        : null,
    };
    const list = byProfile.get(q.profile_id) ?? [];
    list.push(row);
    byProfile.set(q.profile_id, list);
  }
  for (const [profileId, rows] of byProfile) {
    const scope = activeScope(db, profileId);
    rememberScope(db, scope, at);
    upsertRows(db, scope, rows, 'queue', at);
  }
}
