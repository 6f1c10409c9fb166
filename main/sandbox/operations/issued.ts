import { encodeData, type SandboxContext } from '../context';
import type { SandboxInvoice } from '../data';
import { kindFromFlags } from '../../../common/model/kind';
import { mergePdfs } from '../render-pdf';
import { envelope, fail, parseBool, qget, TRANSACTION_ID, type Reply } from '../reply';
import { getCI } from '../validate';
import { notVisibleYet, statusEntry } from './status';

const MAX_IDS = 50;
const MAX_TAKE = 100;

/** `yyyyMMdd` → `yyyy-MM-dd`; anything else → null. */
function pagingDate(raw: unknown): string | null {
  const m = typeof raw === 'string' ? /^(\d{4})(\d{2})(\d{2})$/.exec(raw.trim()) : null;
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
}

function whole(raw: unknown, fallback: number): number | null {
  if (raw === undefined || raw === null) return fallback;
  const n = typeof raw === 'string' ? Number(raw) : raw;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : null;
}

/** One issued invoice as the list shows it: the status fields plus the InvoiceData totals and buyer. */
function pagingEntry(ctx: SandboxContext, inv: SandboxInvoice, nowMs: number): Record<string, unknown> {
  const rec = ctx.issuing.recordOf(inv.TransactionID ?? '');
  const raw = inv as unknown as Record<string, unknown>;
  const org = (k: string): unknown => raw[k] ?? null;
  return {
    ...statusEntry(ctx, inv, rec, nowMs),
    InvDate: inv.InvDate,
    InvoiceName: inv.InvoiceName,
    CurrencyCode: inv.CurrencyCode,
    ExchangeRate: inv.ExchangeRate,
    TotalAmountWithoutVATOC: inv.TotalAmountWithoutVATOC,
    TotalVATAmountOC: inv.TotalVATAmountOC,
    TotalDiscountAmountOC: inv.TotalDiscountAmountOC,
    TotalAmountOC: inv.TotalAmountOC,
    TotalAmount: Math.round(inv.TotalAmountOC * (inv.ExchangeRate || 1)),
    BuyerLegalName: inv.BuyerLegalName,
    BuyerEmail: inv.BuyerEmail,
    BuyerAddress: inv.BuyerAddress,
    OrgInvTemplateNo: org('OrgInvTemplateNo'),
    OrgInvSeries: org('OrgInvSeries'),
    OrgInvNo: org('OrgInvNo'),
    OrgInvDate: org('OrgInvDate'),
  };
}

/**
 * POST paging?invoiceWithCode=&invoiceCalcu= `{FromDate, ToDate (yyyyMMdd), Skip, Take ≤ 100,
 * ListInvTemplate}` → `{PageData, TotalCount, Summary}`: the live issued invoices of one kind
 * in the range, newest first (so an invoice issued while someone pages shifts the pages: the
 * client must de-duplicate), hidden like status for statusDelayMs after issue.
 */
export function opPaging(ctx: SandboxContext, query: URLSearchParams, body: unknown): Reply {
  const withCode = parseBool(qget(query, 'invoiceWithCode'));
  const calc = parseBool(qget(query, 'invoiceCalcu'));
  if (withCode === 'bad' || calc === 'bad' || body === null || typeof body !== 'object' || Array.isArray(body)) return fail('InvalidRequestBody', 400);
  const from = pagingDate(getCI(body, 'FromDate'));
  const to = pagingDate(getCI(body, 'ToDate'));
  const skip = whole(getCI(body, 'Skip'), 0);
  const take = whole(getCI(body, 'Take'), 20);
  const templatesRaw = getCI(body, 'ListInvTemplate') ?? [];
  if (!from || !to || from > to || skip === null || take === null || take < 1 || take > MAX_TAKE || !Array.isArray(templatesRaw)) {
    return fail('InvalidRequestBody', 400);
  }
  const series = new Set(templatesRaw.filter((t): t is string => typeof t === 'string').map((t) => t.trim().toUpperCase()));
  const nowMs = ctx.now().getTime();
  const kind = kindFromFlags(withCode, calc);
  const hits: SandboxInvoice[] = [];
  for (const id of ctx.cat.list(kind)) {
    const inv = ctx.cat.get(id);
    if (!inv || inv.deleted || inv.InvDate < from || inv.InvDate > to) continue;
    if (series.size > 0 && !series.has(inv.InvSeries) && !series.has(inv.InvSeries.slice(1))) continue;
    if (notVisibleYet(ctx, ctx.issuing.recordOf(id), nowMs)) continue;
    hits.push(inv);
  }
  hits.sort((a, b) =>
    a.InvDate === b.InvDate ? (a.InvSeries === b.InvSeries ? cmp(b.InvNo, a.InvNo) : cmp(a.InvSeries, b.InvSeries)) : cmp(b.InvDate, a.InvDate),
  );
  const page = hits.slice(skip, skip + take).map((inv) => pagingEntry(ctx, inv, nowMs));
  ctx.served.pagingRequests++;
  ctx.served.pagingItems += page.length;
  return { status: 200, envelope: envelope(true, encodeData(ctx, { PageData: page, TotalCount: hits.length, Summary: null })) };
}

function cmp(a: string | undefined, b: string | undefined): number {
  return (a ?? '') < (b ?? '') ? -1 : (a ?? '') > (b ?? '') ? 1 : 0;
}

/** The live invoices a list of TransactionIDs names (any kind); an unknown or deleted one → its ID. */
function lookUp(ctx: SandboxContext, body: unknown): { invoices: SandboxInvoice[]; missing: string | null } | Reply {
  if (!Array.isArray(body) || body.length === 0) return fail('InvalidRequestBody', 400);
  if (body.length > MAX_IDS) return fail('InvoiceQuantityTooLarge');
  const invoices: SandboxInvoice[] = [];
  for (const raw of body) {
    const inv = typeof raw === 'string' && TRANSACTION_ID.test(raw) ? ctx.cat.get(raw) : undefined;
    if (!inv || inv.deleted) return { invoices, missing: String(raw) };
    invoices.push(inv);
  }
  return { invoices, missing: null };
}

/**
 * POST publishview with TransactionIDs → a short-lived link to the issued invoice(s) as one PDF.
 * A `CompanyTaxCode` header (documented for this call) must name the sandbox seller when sent.
 */
export async function opPublishView(ctx: SandboxContext, body: unknown, companyTaxCode: string | undefined): Promise<Reply> {
  if (companyTaxCode !== undefined && companyTaxCode !== ctx.issuing.certificate.TaxCode) return fail('InvalidTaxCode');
  const found = lookUp(ctx, body);
  if ('status' in found) return found;
  if (found.missing !== null) return fail('InvoiceNotExist');
  const pdfs = await Promise.all(found.invoices.map((inv) => ctx.renderer.render(inv, 'Pdf')));
  const bytes = pdfs.length === 1 && pdfs[0] ? pdfs[0] : await mergePdfs(pdfs);
  return { status: 200, envelope: envelope(true, ctx.links.add('viewer', bytes)) };
}

/**
 * POST voucher-paper?invoiceWithCode=&invoiceCalcu=&Converter=&ConvertDate=yyyy-MM-dd with up
 * to 50 TransactionIDs → `[{TransactionID, Data (base64 PDF), ErrorCode}]`: the paper copy
 * converted from each e-invoice; an invoice of another kind or unknown has ErrorCode InvoiceNotExist.
 */
export async function opVoucherPaper(ctx: SandboxContext, query: URLSearchParams, body: unknown): Promise<Reply> {
  const withCode = parseBool(qget(query, 'invoiceWithCode'));
  const calc = parseBool(qget(query, 'invoiceCalcu'));
  const converter = (qget(query, 'Converter') ?? '').trim();
  const date = (qget(query, 'ConvertDate') ?? '').trim();
  if (withCode === 'bad' || calc === 'bad' || !converter || converter.length > 100 || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return fail('InvalidRequestBody', 400);
  if (!Array.isArray(body) || body.length === 0) return fail('InvalidRequestBody', 400);
  if (body.length > MAX_IDS) return fail('InvoiceQuantityTooLarge');
  const kind = kindFromFlags(withCode, calc);
  const items = await Promise.all(
    body.map(async (raw: unknown, index) => {
      const id = typeof raw === 'string' ? raw : JSON.stringify(raw);
      const inv = typeof raw === 'string' && TRANSACTION_ID.test(raw) && ctx.cat.kindOf(raw) === kind ? ctx.cat.get(raw) : undefined;
      const field = ctx.quirks.itemDataField === 'mixed' && index % 2 === 1 ? 'data' : 'Data';
      if (!inv || inv.deleted) return { TransactionID: id, [field]: null, ErrorCode: inv?.deleted ? 'InvoiceDeleted' : 'InvoiceNotExist' };
      const pdf = await ctx.renderer.renderPaper(inv, { converter, date });
      return { TransactionID: id, [field]: Buffer.from(pdf).toString('base64'), ErrorCode: '' };
    }),
  );
  return { status: 200, envelope: envelope(true, encodeData(ctx, items)) };
}
