import type { InvoiceKind } from '../model/kind';
import { ASYNC_SIGN_TYPES, type SignType } from '../model/issuing';
import { parseSeries } from './series';

/** The kind of invoice a series issues: type letter M is a cash register, else C (with code) or K. */
export function invoiceKindOfSeries(series: string): InvoiceKind {
  const p = parseSeries(series);
  if (!p.ok) return 'withoutCode';
  if (p.typeLetter === 'M') return 'cashRegister';
  return p.withCode ? 'withCode' : 'withoutCode';
}

/**
 * The sign type an invoice is issued with: a cash-register series (type letter M) is always
 * issued as a cash-register invoice (5, or 6 when the shop chose asynchronous signing); any other
 * series is HSM-signed (2, or 3 asynchronously).
 */
export function signTypeFor(setting: SignType, kind: InvoiceKind): SignType {
  const async = ASYNC_SIGN_TYPES.includes(setting);
  if (kind === 'cashRegister') return async ? 6 : 5;
  return async ? 3 : 2;
}
