import type { SandboxContext } from '../context';
import { taxAuthorityCode, type SandboxInvoice } from '../data';
import type { SeriesHold } from '../ledger';
import { DESCRIPTIONS, envelope, fail, type Reply } from '../reply';
import { getCI, validateInvoiceData } from '../validate';
import type { InvoiceKind } from '../../../common/model/kind';
import { parseSeries } from '../../../common/rules/series';
import { vatRateOnDate } from '../../../common/rules/tax-rules';

const SIGN_TYPES = [2, 3, 4, 5, 6];
/** HSM sign types, which need the registered certificate. */
const CERT_SIGN_TYPES = [2, 3];
/** Asynchronous sign types: issued, but the answer carries no TransactionID/InvNo (poll status). */
const ASYNC_SIGN_TYPES = [3, 6];
const MAX_INVOICES = 50;
/** Validation findings that mean "the invoice's identity is missing or unreadable". */
const IDENTITY_ERRORS = new Set([
  'RequireError_InvoiceData',
  'RequireError_RefID',
  'RequireError_InvSeries',
  'RequireError_InvDate',
  'RequireError_OriginalInvoiceDetail',
  'InvalidRefID',
  'InvalidInvDate',
]);

/** One invoice's result in PublishInvoiceResult (PascalCase, as documented). */
export type ResultItem = {
  RefID: string;
  TransactionID: string | null;
  InvNo: string | null;
  InvSeries: string;
  InvDate: string;
  InvoiceCode: string | null;
  ErrorCode: string;
  DescriptionErrorCode: string | null;
};

const text = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

/** The kind an issued invoice of a series has: M (cash register) as the type letter, else C/K. */
export function kindOfSeries(series: string): InvoiceKind | undefined {
  const p = parseSeries(series);
  if (!p.ok) return undefined;
  if (p.typeLetter === 'M') return 'cashRegister';
  return p.withCode ? 'withCode' : 'withoutCode';
}

function callFail(code: string, status = 200): Reply {
  const reply = fail(code, status);
  if (reply.envelope) reply.envelope.publishInvoiceResult = null;
  return reply;
}

function encodeItems(ctx: SandboxContext, items: ResultItem[]): unknown {
  const cased =
    ctx.quirks.publishItemCasing === 'camel'
      ? items.map((item) => Object.fromEntries(Object.entries(item).map(([k, v]) => [k.charAt(0).toLowerCase() + k.slice(1), v])))
      : items;
  return ctx.quirks.publishResultEncoding === 'list' ? cased : JSON.stringify(cased);
}

/** Issues one invoice of a request, or says why not. Records it into the catalogue on success. */
function issueOne(ctx: SandboxContext, raw: unknown, signType: number, certOk: boolean, hold: SeriesHold | undefined): ResultItem {
  const { cat, issuing } = ctx;
  const base: ResultItem = {
    RefID: text(getCI(raw, 'RefID')),
    TransactionID: null,
    InvNo: null,
    InvSeries: text(getCI(raw, 'InvSeries')),
    InvDate: text(getCI(raw, 'InvDate')),
    InvoiceCode: null,
    ErrorCode: '',
    DescriptionErrorCode: null,
  };
  const refuse = (code: string): ResultItem => ({ ...base, ErrorCode: code, DescriptionErrorCode: DESCRIPTIONS[code] ?? code });

  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return refuse('InvalidInvoiceData');
  const lines = getCI(raw, 'OriginalInvoiceDetail');
  if (!base.RefID.trim() || !base.InvSeries.trim() || !base.InvDate.trim() || !Array.isArray(lines) || lines.length === 0) return refuse('InvalidInvoiceData');
  const series = issuing.resolveSeries(base.InvSeries);
  const kind = series ? kindOfSeries(series) : undefined;
  if (!series || !kind) return refuse('InvoiceTemplateNotExist');
  const { errors, invoice } = validateInvoiceData({ ...(raw as Record<string, unknown>), InvSeries: series });
  if (!invoice) {
    const first = errors.find((e) => !IDENTITY_ERRORS.has(e));
    return refuse(errors.some((e) => IDENTITY_ERRORS.has(e)) || !first ? 'InvalidInvoiceData' : first);
  }
  if (CERT_SIGN_TYPES.includes(signType) && !certOk) return refuse('InvalidCertByRegistration');
  // A definitive answer first: the client adopts the issued invoice (status by RefID).
  if (cat.byRefId(invoice.RefID) !== undefined) return refuse('DuplicateInvoiceRefID');
  if (hold?.conflicts.has(series)) {
    issuing.countOverlap();
    return refuse('InvoiceNumberNotCotinuous');
  }
  const tail = cat.seriesTail(series);
  if (tail && invoice.InvDate < tail.date) return refuse('InvalidInvoiceDate');
  if (invoice.OriginalInvoiceDetail.some((l) => l.ItemType !== 4 && vatRateOnDate(l.VATRateName, invoice.InvDate).status === 'outside'))
    return refuse('TaxReductionDateInValid');
  const licence = ctx.quirks.licenceInvoices;
  if (licence !== null && issuing.count >= licence) return refuse('LicenseInfo_OutOfInvoice');

  const at = ctx.now();
  const issued: SandboxInvoice & { TransactionID: string; InvNo: string; kind: InvoiceKind } = {
    ...invoice,
    InvSeries: series,
    TransactionID: issuing.nextTransactionId(),
    InvNo: String((tail?.invNo ?? 0) + 1).padStart(8, '0'),
    kind,
  };
  cat.add(issued);
  const referenceType = getCI(raw, 'ReferenceType');
  issuing.record({
    RefID: issued.RefID,
    TransactionID: issued.TransactionID,
    InvNo: issued.InvNo,
    InvSeries: series,
    InvDate: issued.InvDate,
    kind,
    issuedAt: at.toISOString(),
    issuedMs: at.getTime(),
    signType,
    isSendMail: getCI(raw, 'IsSendEmail') === true,
    referenceType: referenceType === 1 || referenceType === 2 ? referenceType : 0,
  });
  if (referenceType === 1 || referenceType === 2) {
    const orgNo = getCI(raw, 'OrgInvNo');
    issuing.markCorrected(`${text(getCI(raw, 'OrgInvTemplateNo'))}${text(getCI(raw, 'OrgInvSeries'))}`, String(orgNo ?? ''), referenceType);
  }
  if (ASYNC_SIGN_TYPES.includes(signType)) return { ...base, InvSeries: series, InvDate: issued.InvDate };
  const code = kind === 'cashRegister' || (kind === 'withCode' && ctx.quirks.invoiceCodeDelayMs === 0) ? taxAuthorityCode(issued) : null;
  return { ...base, TransactionID: issued.TransactionID, InvNo: issued.InvNo, InvSeries: series, InvDate: issued.InvDate, InvoiceCode: code };
}

/**
 * POST {base} `{SignType, CertificateSN, InvoiceData: [...], PublishInvoiceData}` → the envelope
 * with data null plus publishInvoiceResult, one item per invoice in request order.
 */
export async function opIssue(ctx: SandboxContext, body: unknown, hold: SeriesHold | undefined): Promise<Reply> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return callFail('InvalidRequestBody', 400);
  const list = getCI(body, 'InvoiceData');
  if (!Array.isArray(list) || list.length === 0) return callFail('InvalidRequestBody', 400);
  if (list.length > MAX_INVOICES) return callFail('InvoiceQuantityTooLarge');
  const signType = getCI(body, 'SignType');
  if (typeof signType !== 'number' || !SIGN_TYPES.includes(signType)) return callFail('InvalidSignType');
  const certOk = getCI(body, 'CertificateSN') === ctx.issuing.certificate.CertificateSN;

  const items = list.map((raw: unknown) => issueOne(ctx, raw, signType, certOk, hold));
  if (ctx.quirks.issueProcessingMs > 0) await new Promise((r) => setTimeout(r, ctx.quirks.issueProcessingMs));
  const none = items.every((i) => i.ErrorCode !== '');
  if (none && items.some((i) => i.ErrorCode === 'LicenseInfo_OutOfInvoice')) return callFail('LicenseInfo_OutOfInvoice');
  return { status: 200, envelope: { ...envelope(true, null), publishInvoiceResult: encodeItems(ctx, items) } };
}
