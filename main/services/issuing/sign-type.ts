import type { InvoiceKind } from '../../../common/model';
import { ASYNC_SIGN_TYPES, type SignType } from '../../../common/model/issuing';

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
