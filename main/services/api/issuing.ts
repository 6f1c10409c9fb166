import { codeField, getField, unwrapData } from '../../../common/envelope';
import { NormaliseError } from './normalise';

/** One item of `publishInvoiceResult`: the service's verdict on one invoice of an issue request. */
export interface PublishItem {
  refId: string | null;
  transactionId: string | null;
  invNo: string | null;
  invSeries: string | null;
  invDate: string | null;
  invoiceCode: string | null;
  errorCode: string | null;
  description: string | null;
  /** No ErrorCode: the invoice is issued (for the asynchronous sign types: accepted, settled by status). */
  ok: boolean;
  raw: Record<string, unknown>;
}

export interface IssueOutcome {
  items: PublishItem[];
  envelopeSuccess: boolean | undefined;
  callErrorCode: string | null;
  callErrorDescription: string | null;
  /** The answer's top-level fields as received (kept in the local record, as the service asks). */
  answer: Record<string, unknown>;
}

export interface Certificate {
  certificateSN: string;
  taxCode: string | null;
  userName: string | null;
  authOrganizeName: string | null;
  effectiveTime: string | null;
  expirationTime: string | null;
}

/** One invoice as `status` reports it; an ID the service does not know is simply absent. */
export interface StatusItem {
  refId: string | null;
  transactionId: string | null;
  invSeries: string | null;
  invTempl: string | null;
  invNo: string | null;
  /** 1 = issued. */
  publishStatus: number | null;
  eInvoiceStatus: number | null;
  referenceType: number | null;
  invoiceCode: string | null;
  /** 0 not sent to the tax authority, 1 sent, 2 accepted, 3 rejected, 4 notice invalid. */
  sendTaxStatus: number | null;
  publishedTime: string | null;
  raw: Record<string, unknown>;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function text(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v.trim() === '' ? null : v.trim();
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return null;
}

export function int(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isInteger(n) ? n : null;
}

export function listOf(value: unknown, what: string): Record<string, unknown>[] {
  const data = unwrapData(value);
  if (data === null || data === undefined || data === '') return [];
  const list = Array.isArray(data) ? data : isObject(data) ? [data] : null;
  if (!list) throw new NormaliseError(`${what} is ${typeof data}, not a list`);
  return list.map((raw, i) => {
    const el = unwrapData(raw);
    if (!isObject(el)) throw new NormaliseError(`${what} #${i + 1} is not an object`);
    return el;
  });
}

/**
 * `publishInvoiceResult` (either casing; a list or a JSON string holding one). An item without a
 * RefID is matched to the request only when the request held exactly one invoice.
 */
export function normalisePublishItems(fields: Record<string, unknown>, requestedRefIds: readonly string[]): PublishItem[] {
  return listOf(getField(fields, 'publishInvoiceResult'), 'publishInvoiceResult').map((el) => {
    const errorCode = codeField(el, 'ErrorCode');
    return {
      refId: text(getField(el, 'RefID')) ?? (requestedRefIds.length === 1 ? requestedRefIds[0]! : null),
      transactionId: text(getField(el, 'TransactionID')),
      invNo: text(getField(el, 'InvNo')),
      invSeries: text(getField(el, 'InvSeries')),
      invDate: text(getField(el, 'InvDate')),
      invoiceCode: text(getField(el, 'InvoiceCode')),
      errorCode,
      description: text(getField(el, 'DescriptionErrorCode')),
      ok: errorCode === null,
      raw: el,
    };
  });
}

export function normaliseCertificates(data: unknown): Certificate[] {
  return listOf(data, 'certificate').flatMap((el) => {
    const sn = text(getField(el, 'CertificateSN'));
    if (!sn) return [];
    return [
      {
        certificateSN: sn,
        taxCode: text(getField(el, 'TaxCode')),
        userName: text(getField(el, 'UserName')),
        authOrganizeName: text(getField(el, 'AuthOrganizeName')),
        effectiveTime: text(getField(el, 'EffectiveTime')),
        expirationTime: text(getField(el, 'ExpirationTime')),
      },
    ];
  });
}

export function normaliseStatus(data: unknown): StatusItem[] {
  return listOf(data, 'status').map((el) => ({
    refId: text(getField(el, 'RefID')),
    transactionId: text(getField(el, 'TransactionID')),
    invSeries: text(getField(el, 'InvSeries')),
    invTempl: text(getField(el, 'InvTempl')),
    invNo: text(getField(el, 'InvNo')),
    publishStatus: int(getField(el, 'PublishStatus')),
    eInvoiceStatus: int(getField(el, 'EInvoiceStatus')),
    referenceType: int(getField(el, 'ReferenceType')),
    invoiceCode: text(getField(el, 'InvoiceCode')),
    sendTaxStatus: int(getField(el, 'SendTaxStatus')),
    publishedTime: text(getField(el, 'PublishedTime')),
    raw: el,
  }));
}
