import type { EmailState } from '../../../common/calls/emails';
import { describeErrorCode } from '../../../common/envelope';
import type { Bilingual } from '../../../common/model';
import type { SendEmailOutcome } from '../api';
import type { ClaimedEntry } from './claims';

/** What one SendEmailResult means for its outbox entry. */
export interface Verdict {
  state: Extract<EmailState, 'sent' | 'requested' | 'sendingAtService' | 'failed' | 'unknown'>;
  sendEmailStatus: number | null;
  errorCode: string | null;
  retryable: boolean;
  message: Bilingual | null;
}

const done = (state: Verdict['state'], status: number): Verdict =>
  Object.freeze({ state, sendEmailStatus: status, errorCode: null, retryable: false, message: null });
/** The verdicts of a batch that went well are these few, shared (and grouped by identity when written). */
const SENT = done('sent', 3);
const REQUESTED = done('requested', 4);
const AT_SERVICE = done('sendingAtService', 1);
const notSent = (status: number, message: Bilingual): Verdict => ({ state: 'failed', sendEmailStatus: status, errorCode: null, retryable: true, message });
const unknown = (message: Bilingual): Verdict => ({ state: 'unknown', sendEmailStatus: null, errorCode: null, retryable: false, message });

/**
 * Judges one invoice by ITS OWN SendEmailStatus and ErrorCode — never by the envelope's
 * `success` (the service may say `success: false` while every item has status 3).
 * - no ErrorCode and status 3 → sent; 4 → requested (the service will send); 1 → sending at the service
 * - status 2 or an ErrorCode → failed (retryable unless the code says the data must change first)
 * - status 0 without a code → failed, retryable (the service says it did not send)
 * - no readable status → unknown (we cannot tell; the user decides)
 */
export function judgeItem(status: number | null, errorCode: string | null): Verdict {
  const code = errorCode && errorCode.trim() !== '' ? errorCode.trim() : null;
  if (code !== null) return { state: 'failed', sendEmailStatus: status, errorCode: code, retryable: isRetryableCode(code), message: describeCode(code) };
  switch (status) {
    case 3:
      return SENT;
    case 4:
      return REQUESTED;
    case 1:
      return AT_SERVICE;
    case 2:
      return notSent(2, { en: 'The service could not send this email (send error).', vi: 'Dịch vụ không gửi được email này (gửi lỗi).' });
    case 0:
      return notSent(0, { en: 'The service reports this email as not sent.', vi: 'Dịch vụ báo email này chưa được gửi.' });
    default:
      return unknown({
        en: 'The service answered without a readable send status for this invoice; check before sending again.',
        vi: 'Dịch vụ trả lời nhưng không có trạng thái gửi đọc được cho hóa đơn này; hãy kiểm tra trước khi gửi lại.',
      });
  }
}

/** The verdict of each entry of a batch from the service's answer to it. */
export function judgeOutcome(entries: readonly ClaimedEntry[], outcome: SendEmailOutcome): Map<number, Verdict> {
  const byTx = new Map<string, SendEmailOutcome['items'][number]>();
  for (const item of outcome.items) if (!byTx.has(item.transactionId)) byTx.set(item.transactionId, item);
  const verdicts = new Map<number, Verdict>();
  for (const e of entries) {
    const item = byTx.get(e.transactionId);
    if (item) verdicts.set(e.id, judgeItem(item.status, item.errorCode));
    else if (outcome.callErrorCode) verdicts.set(e.id, refused(outcome.callErrorCode, describeCode(outcome.callErrorCode)));
    else {
      verdicts.set(
        e.id,
        unknown({
          en: "The service's answer did not mention this invoice; check it before sending again.",
          vi: 'Câu trả lời của dịch vụ không nhắc tới hóa đơn này; hãy kiểm tra trước khi gửi lại.',
        }),
      );
    }
  }
  return verdicts;
}

/** The whole request was refused with `code` (or without one): nothing was sent. */
export function refused(code: string | null, message: Bilingual): Verdict {
  return { state: 'failed', sendEmailStatus: null, errorCode: code, retryable: code ? isRetryableCode(code) : true, message };
}

/** Codes whose cause is outside the entry (sign-in, a limit) are worth retrying as they are. */
export function isRetryableCode(code: string): boolean {
  const category = describeErrorCode(code).category;
  return category === 'auth' || category === 'limit';
}

function describeCode(code: string): Bilingual {
  const d = describeErrorCode(code);
  return d.known ? { en: `${d.en} [${d.code}]`, vi: `${d.vi} [${d.code}]` } : { en: d.en, vi: d.vi };
}
