import type { EmailState } from '../../../common/calls/emails';
import { describeErrorCode } from '../../../common/envelope';
import type { Bilingual } from '../../../common/model';

/** What one SendEmailResult means for its outbox entry. */
export interface Verdict {
  state: Extract<EmailState, 'sent' | 'requested' | 'sendingAtService' | 'failed' | 'unknown'>;
  sendEmailStatus: number | null;
  errorCode: string | null;
  retryable: boolean;
  message: Bilingual | null;
}

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
  if (code === null) {
    if (status === 3) return { state: 'sent', sendEmailStatus: 3, errorCode: null, retryable: false, message: null };
    if (status === 4) return { state: 'requested', sendEmailStatus: 4, errorCode: null, retryable: false, message: null };
    if (status === 1) return { state: 'sendingAtService', sendEmailStatus: 1, errorCode: null, retryable: false, message: null };
    if (status === 2) {
      return {
        state: 'failed',
        sendEmailStatus: 2,
        errorCode: null,
        retryable: true,
        message: { en: 'The service could not send this email (send error).', vi: 'Dịch vụ không gửi được email này (gửi lỗi).' },
      };
    }
    if (status === 0) {
      return {
        state: 'failed',
        sendEmailStatus: 0,
        errorCode: null,
        retryable: true,
        message: { en: 'The service reports this email as not sent.', vi: 'Dịch vụ báo email này chưa được gửi.' },
      };
    }
    return {
      state: 'unknown',
      sendEmailStatus: null,
      errorCode: null,
      retryable: false,
      message: {
        en: 'The service answered without a readable send status for this invoice; check before sending again.',
        vi: 'Dịch vụ trả lời nhưng không có trạng thái gửi đọc được cho hóa đơn này; hãy kiểm tra trước khi gửi lại.',
      },
    };
  }
  return { state: 'failed', sendEmailStatus: status, errorCode: code, retryable: isRetryableCode(code), message: describeCode(code) };
}

/** Codes whose cause is outside the entry (sign-in, a limit) are worth retrying as they are. */
export function isRetryableCode(code: string): boolean {
  const category = describeErrorCode(code).category;
  return category === 'auth' || category === 'limit';
}

export function describeCode(code: string): Bilingual {
  const d = describeErrorCode(code);
  return d.known ? { en: `${d.en} [${d.code}]`, vi: `${d.vi} [${d.code}]` } : { en: d.en, vi: d.vi };
}
