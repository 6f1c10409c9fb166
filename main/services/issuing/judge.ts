import { describeErrorCode } from '../../../common/envelope';
import type { Bilingual } from '../../../common/model';
import { ASYNC_SIGN_TYPES } from '../../../common/model/issuing';
import type { IssueOutcome, PublishItem, StatusItem } from '../api';
import type { IssueClaim, IssueVerdict } from './queue';

/** Codes the service documents as "try again": the request did nothing, the series was busy. */
const TRY_AGAIN = new Set(['invoicenumbernotcotinuous', 'invoiceduplicated']);
/** A refusal that may pass by itself (licence topped up, signing service back): "retry" is offered. */
const PASSING = /^(LicenseInfo_|CallSignServiceFail|SignEsignHSMError|SignSoftDream78Exception|Exception$)/i;

export const WAITING_FOR_SERVICE: Bilingual = {
  en: 'The service accepted the invoice and signs it later; its number comes from a status check.',
  vi: 'Hệ thống đã nhận hóa đơn và sẽ ký sau; số hóa đơn sẽ có khi kiểm tra trạng thái.',
};

export function refusal(code: string | null, description: string | null): Bilingual {
  const d = code ? describeErrorCode(code) : { en: 'The service refused the invoice.', vi: 'Hệ thống từ chối hóa đơn.', known: false };
  // The service's own description only where our words do not already say it.
  const extra = !d.known && description && description !== code ? ` (${description})` : '';
  return { en: `${d.en}${extra}`, vi: `${d.vi}${extra}` };
}

/** The verdict on one invoice from its item of `publishInvoiceResult`. */
export function judgeItem(item: PublishItem | undefined, signType: IssueClaim['signType'], gapMs: number): IssueVerdict {
  if (!item)
    return {
      state: 'unknown',
      message: { en: 'The service answered without a result for this invoice.', vi: 'Hệ thống trả lời nhưng không có kết quả cho hóa đơn này.' },
    };
  if (item.ok) {
    if (item.transactionId) {
      return { state: 'issued', transactionId: item.transactionId, invNo: item.invNo, invoiceCode: item.invoiceCode, invDate: item.invDate };
    }
    // Asynchronous signing (3, 6), or an answer without the lookup code: the service has it; the status lookup settles it.
    return {
      state: 'unknown',
      serviceHas: true,
      message: ASYNC_SIGN_TYPES.includes(signType)
        ? WAITING_FOR_SERVICE
        : {
            en: 'The service took the invoice but gave no lookup code yet; it is looked up.',
            vi: 'Hệ thống đã nhận hóa đơn nhưng chưa trả mã tra cứu; ứng dụng sẽ tra cứu.',
          },
    };
  }
  const code = item.errorCode!;
  const lower = code.toLowerCase();
  // The RefID was issued before (an earlier request whose answer was lost): adopt that invoice.
  if (lower === 'duplicateinvoicerefid') {
    return {
      state: 'unknown',
      serviceHas: true,
      message: {
        en: 'The service already has an invoice with this RefID; it is looked up and adopted.',
        vi: 'Hệ thống đã có hóa đơn với RefID này; ứng dụng sẽ tra cứu và nhận hóa đơn đó.',
      },
    };
  }
  if (TRY_AGAIN.has(lower)) return { state: 'queued', delayMs: Math.max(gapMs, 1_000), message: refusal(code, item.description) };
  return { state: 'failed', errorCode: code, message: refusal(code, item.description), retryable: PASSING.test(code) };
}

/** Verdicts for every invoice of a claim from the service's answer. */
export function judgeOutcome(claim: IssueClaim, outcome: IssueOutcome, gapMs: number): Map<number, IssueVerdict> {
  const byRef = new Map<string, PublishItem>();
  for (const item of outcome.items) if (item.refId) byRef.set(item.refId, item);
  return new Map(claim.entries.map((e) => [e.id, judgeItem(byRef.get(e.refId), claim.signType, gapMs)]));
}

/**
 * A refusal of the whole request (no per-invoice results): a code the service documents as a
 * refusal means nothing was issued; a duplicate RefID is adopted; "try again" codes wait for the
 * gap; an unknown code, `Exception` or none at all may hide an issued invoice: unknown.
 */
export function judgeCall(code: string | null, description: string | null, gapMs: number): IssueVerdict {
  const lower = (code ?? '').toLowerCase();
  if (lower === 'duplicateinvoicerefid') return judgeItem({ ...NO_ITEM, errorCode: code }, 2, gapMs);
  if (TRY_AGAIN.has(lower)) return { state: 'queued', delayMs: Math.max(gapMs, 1_000), message: refusal(code, description) };
  if (code && lower !== 'exception' && describeErrorCode(code).known) {
    return { state: 'failed', errorCode: code, message: refusal(code, description), retryable: PASSING.test(code) };
  }
  return { state: 'unknown', message: refusal(code, description) };
}

const NO_ITEM: PublishItem = {
  refId: null,
  transactionId: null,
  invNo: null,
  invSeries: null,
  invDate: null,
  invoiceCode: null,
  errorCode: null,
  description: null,
  ok: false,
  raw: {},
};

/** What a status lookup by RefID says: issued (adopt it), found but not yet published (wait), or absent (null). */
export function adoptFromStatus(item: StatusItem | undefined): IssueVerdict | 'pending' | null {
  if (!item) return null;
  if (!item.transactionId || (item.publishStatus !== null && item.publishStatus !== 1)) return 'pending';
  return { state: 'issued', transactionId: item.transactionId, invNo: item.invNo, invoiceCode: item.invoiceCode, invDate: null };
}
