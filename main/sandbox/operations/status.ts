import { encodeData, type SandboxContext } from '../context';
import { taxAuthorityCode, type SandboxInvoice } from '../data';
import type { IssueRecord } from '../ledger';
import { envelope, fail, parseBool, qget, type Reply } from '../reply';
import { kindFromFlags } from '../../../common/model/kind';

const MAX_IDS = 50;

/** One status entry. Generated invoices were issued long ago: code and acceptance are there. */
export function statusEntry(ctx: SandboxContext, inv: SandboxInvoice, rec: IssueRecord | undefined, nowMs: number): Record<string, unknown> {
  const id = inv.TransactionID ?? '';
  const codeReady = !rec || nowMs - rec.issuedMs >= ctx.quirks.invoiceCodeDelayMs;
  const coded = inv.kind !== 'withoutCode';
  // A cash-register code is made by the seller's software at issue; a with-code one comes from the tax authority.
  const code = inv.kind === 'cashRegister' || (coded && codeReady) ? taxAuthorityCode(inv) : null;
  const referenceType = rec?.referenceType ?? 0;
  return {
    RefID: inv.RefID,
    TransactionID: id,
    InvSeries: inv.InvSeries,
    InvTempl: inv.InvSeries.slice(0, 1),
    InvNo: inv.InvNo ?? null,
    PublishStatus: 1,
    EInvoiceStatus: eInvoiceStatus(ctx, inv, referenceType),
    ReferenceType: referenceType,
    InvoiceCode: code,
    SendTaxStatus: coded ? (codeReady ? 2 : 1) : 0,
    PublishedTime: rec ? rec.issuedAt : new Date(`${inv.InvDate}T02:00:00Z`).toISOString(),
    ReceiverStatus: 0,
    IsSendMail: (rec?.isSendMail ?? false) || ctx.emails.some((e) => e.TransactionID === id),
    BuyerName: inv.BuyerLegalName,
    BuyerTaxCode: inv.BuyerTaxCode,
    BuyerCode: inv.BuyerCode,
    BuyerFullName: inv.BuyerFullName,
    SourceType: rec ? 2 : 1,
  };
}

/** 3 replacement, 5 adjustment, else 7 once replaced, 8 once adjusted, 1 an untouched original. */
function eInvoiceStatus(ctx: SandboxContext, inv: SandboxInvoice, referenceType: number): number {
  if (referenceType === 1) return 3;
  if (referenceType === 2) return 5;
  const corrected = ctx.issuing.correctedAs(inv.InvSeries, inv.InvNo);
  return corrected === 1 ? 7 : corrected === 2 ? 8 : 1;
}

/** Whether an invoice issued through the API is still hidden from status and paging (statusDelayMs). */
export function notVisibleYet(ctx: SandboxContext, rec: IssueRecord | undefined, nowMs: number): boolean {
  return rec !== undefined && nowMs - rec.issuedMs < ctx.quirks.statusDelayMs;
}

/**
 * POST status?invoiceWithCode=&invoiceCalcu=&inputType=1|2 with up to 50 TransactionIDs (1, the
 * default) or RefIDs (2). Unknown IDs, invoices of another kind, deleted ones and invoices issued
 * less than statusDelayMs ago are absent.
 */
export function opStatus(ctx: SandboxContext, query: URLSearchParams, body: unknown): Reply {
  const { cat, issuing } = ctx;
  const withCode = parseBool(qget(query, 'invoiceWithCode'));
  const calc = parseBool(qget(query, 'invoiceCalcu'));
  const inputType = qget(query, 'inputType') || '1';
  if (withCode === 'bad' || calc === 'bad' || (inputType !== '1' && inputType !== '2')) return fail('InvalidRequestBody', 400);
  if (!Array.isArray(body)) return fail('InvalidRequestBody', 400);
  if (body.length > MAX_IDS) return fail('InvoiceQuantityTooLarge');
  const kind = kindFromFlags(withCode, calc);
  const nowMs = ctx.now().getTime();
  const seen = new Set<string>();
  const out: Record<string, unknown>[] = [];
  for (const raw of body) {
    if (typeof raw !== 'string') continue;
    const id = inputType === '2' ? cat.byRefId(raw) : raw;
    if (id === undefined || seen.has(id) || cat.kindOf(id) !== kind) continue;
    const inv = cat.get(id);
    const rec = issuing.recordOf(id);
    if (!inv || inv.deleted || notVisibleYet(ctx, rec, nowMs)) continue;
    seen.add(id);
    out.push(statusEntry(ctx, inv, rec, nowMs));
  }
  return { status: 200, envelope: envelope(true, encodeData(ctx, out)) };
}
