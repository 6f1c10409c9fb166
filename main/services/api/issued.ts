import { codeField, getField, unwrapData } from '../../../common/envelope';
import type { InvoiceKind } from '../../../common/model';
import { parseSeries } from '../../../common/rules/series';
import { invoiceKindOfSeries } from '../../../common/rules/sign-type';
import { toDecimalString } from '../../../common/money';
import { int, isObject, listOf, text } from './issuing';
import { NormaliseError } from './normalise';

/** The most invoices one paging request may ask for (the documented `Take` limit). */
export const MAX_PAGING_TAKE = 100;

/** One request of the issued-invoice list: dates `YYYY-MM-DD` (sent as yyyyMMdd), one kind. */
export interface PagingQuery {
  from: string;
  to: string;
  /** Series symbols (`1C26TAA`); empty or absent = all. */
  series?: readonly string[];
  kind: InvoiceKind;
  skip: number;
  /** 1 … 100. */
  take: number;
}

/** The original an adjustment or replacement refers to, as the list reports it. */
export interface OriginalReference {
  templateNo: string | null;
  series: string | null;
  invNo: string | null;
  date: string | null;
}

/** One issued invoice of the list: the status fields plus the totals and the buyer. */
export interface IssuedListItem {
  transactionId: string;
  refId: string | null;
  invSeries: string | null;
  invNo: string | null;
  /** `YYYY-MM-DD`. */
  invDate: string | null;
  kind: InvoiceKind;
  buyerName: string;
  buyerTaxCode: string;
  buyerEmail: string;
  currency: string;
  /** TotalAmount (converted to VND) as a decimal string; the OC total when the service omits it. */
  total: string;
  totalOC: string;
  totalWithoutVat: string;
  totalVat: string;
  invoiceCode: string | null;
  publishStatus: number | null;
  /** 1 original, 2 cancelled, 3 replacement, 5 adjustment, 7 replaced, 8 adjusted. */
  eInvoiceStatus: number | null;
  /** 0 original, 1 replacement, 2 adjustment, 5 trade discount. */
  referenceType: number | null;
  /** 0 not sent, 1 sent, 2 accepted, 3 rejected, 4 notice invalid. */
  sendTaxStatus: number | null;
  publishedTime: string | null;
  original: OriginalReference | null;
  raw: Record<string, unknown>;
}

export interface PagingPage {
  items: IssuedListItem[];
  totalCount: number;
}

/** A paper copy converted from one e-invoice: PDF bytes, or the service's reason. */
export interface PaperCopyItem {
  transactionId: string;
  bytes: Uint8Array | null;
  errorCode: string | null;
}

function money(v: unknown): string | null {
  if (typeof v === 'number' && Number.isFinite(v)) return toDecimalString(v);
  if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim())) return toDecimalString(v.trim());
  return null;
}

/** `2026-10-03`, `2026-10-03T00:00:00`, `20261003` → `2026-10-03`. */
export function isoDay(v: unknown): string | null {
  const t = text(v);
  if (!t) return null;
  const m = /^(\d{4})-?(\d{2})-?(\d{2})/.exec(t);
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
}

function issuedItem(el: Record<string, unknown>, kind: InvoiceKind): IssuedListItem | null {
  const transactionId = text(getField(el, 'TransactionID'));
  if (!transactionId) return null;
  const f = (name: string): unknown => getField(el, name);
  const totalOC = money(f('TotalAmountOC')) ?? money(f('TotalAmount')) ?? '0';
  const orgNo = text(f('OrgInvNo'));
  const series = text(f('InvSeries'));
  // paging is documented with invoiceWithCode only: which list a cash-register invoice (type
  // letter M) comes back in is the service's business, its series says what it is.
  const own = series && parseSeries(series).ok ? invoiceKindOfSeries(series) : kind;
  return {
    transactionId,
    refId: text(f('RefID')),
    invSeries: series,
    invNo: text(f('InvNo')),
    invDate: isoDay(f('InvDate')) ?? isoDay(f('PublishedTime')),
    kind: own,
    buyerName: text(f('BuyerLegalName')) ?? text(f('BuyerFullName')) ?? text(f('BuyerName')) ?? '',
    buyerTaxCode: text(f('BuyerTaxCode')) ?? '',
    buyerEmail: text(f('BuyerEmail')) ?? text(f('ReceiverEmail')) ?? '',
    currency: text(f('CurrencyCode')) ?? 'VND',
    total: money(f('TotalAmount')) ?? totalOC,
    totalOC,
    totalWithoutVat: money(f('TotalAmountWithoutVATOC')) ?? money(f('TotalAmountWithoutVAT')) ?? '0',
    totalVat: money(f('TotalVATAmountOC')) ?? money(f('TotalVATAmount')) ?? '0',
    invoiceCode: text(f('InvoiceCode')),
    publishStatus: int(f('PublishStatus')),
    eInvoiceStatus: int(f('EInvoiceStatus')),
    referenceType: int(f('ReferenceType')),
    sendTaxStatus: int(f('SendTaxStatus')),
    publishedTime: text(f('PublishedTime')),
    original: orgNo ? { templateNo: text(f('OrgInvTemplateNo')), series: text(f('OrgInvSeries')), invNo: orgNo, date: isoDay(f('OrgInvDate')) } : null,
    raw: el,
  };
}

/** paging's `data` (often a JSON string): `{PageData, TotalCount}` in either casing. */
export function normalisePaging(data: unknown, kind: InvoiceKind): PagingPage {
  const page = unwrapData(data);
  if (!isObject(page)) throw new NormaliseError(`the issued-invoice list is ${page === null ? 'empty' : typeof page}, not a page`);
  const totalCount = int(getField(page, 'TotalCount'));
  if (totalCount === null || totalCount < 0) throw new NormaliseError('the issued-invoice list has no TotalCount');
  const items = listOf(getField(page, 'PageData'), 'PageData').flatMap((el) => issuedItem(el, kind) ?? []);
  return { items, totalCount };
}

/** voucher-paper's `data`: `[{TransactionID, Data (base64 PDF), ErrorCode}]`. */
export function normaliseVoucherPaper(data: unknown, requested: readonly string[]): PaperCopyItem[] {
  const list = listOf(data, 'voucher-paper');
  if (list.length === 0 && requested.length > 0) throw new NormaliseError('the paper-copy answer holds no invoice');
  return list.map((el, i) => {
    const transactionId = text(getField(el, 'TransactionID')) ?? (list.length === requested.length ? requested[i] : null);
    if (!transactionId) throw new NormaliseError(`paper copy #${i + 1} names no TransactionID`);
    const errorCode = codeField(el, 'ErrorCode');
    const b64 = text(getField(el, 'Data'));
    const bytes = b64 && errorCode === null ? new Uint8Array(Buffer.from(b64, 'base64')) : null;
    if (errorCode === null && (!bytes || !isPdf(bytes))) throw new NormaliseError(`paper copy of ${transactionId} is not a PDF`);
    return { transactionId, bytes, errorCode };
  });
}

export function isPdf(bytes: Uint8Array): boolean {
  return bytes.length >= 5 && Buffer.from(bytes.subarray(0, 5)).toString('latin1') === '%PDF-';
}

/**
 * Pages a list until done (Skip ≥ TotalCount), de-duplicating by TransactionID: the list can grow
 * while it is paged (an invoice issued meanwhile shifts the pages). When the pages end with fewer
 * distinct invoices than the last TotalCount, it reads again from the top until every one is seen
 * (at most two more passes, and never more than three passes' worth of requests); each page goes
 * to `onPage` with only the invoices not seen before.
 */
export async function pageAll(
  fetchPage: (skip: number, take: number) => Promise<PagingPage>,
  onPage: (fresh: IssuedListItem[], progress: { seen: number; total: number }) => Promise<void> | void,
  take: number = MAX_PAGING_TAKE,
): Promise<{ seen: number; total: number; requests: number }> {
  const seen = new Set<string>();
  let skip = 0;
  let passes = 0;
  let requests = 0;
  let total: number;
  let budget = Infinity;
  for (;;) {
    const page = await fetchPage(skip, take);
    requests++;
    total = page.totalCount;
    // A list growing as fast as it is read would never end: three passes' worth of requests at most.
    if (requests === 1) budget = 3 * (Math.ceil(total / take) + 1) + 2;
    const fresh = page.items.filter((i) => !seen.has(i.transactionId));
    for (const i of fresh) seen.add(i.transactionId);
    await onPage(fresh, { seen: seen.size, total });
    skip += page.items.length;
    const ended = page.items.length === 0 || skip >= total;
    if ((seen.size >= total && (ended || passes > 0)) || requests >= budget) break;
    if (ended) {
      if (++passes > 2) break;
      skip = 0;
    }
  }
  return { seen: seen.size, total, requests };
}
