import type { EmailAttempt, EmailLeft, EmailSkip, EmailState } from '../../../common/calls/emails';
import type { Bilingual } from '../../../common/model';
import { MAYBE_SENT_EMAIL_STATES } from '../../../common/rules/email-queue';
import type { Row } from './entries';

/**
 * One history per invoice: which states an add, a retry or a "send again" may queue again, the
 * reasons given for the rows left alone, and the archive of earlier outcomes (`email_attempts`).
 */

/** Not sent (or refused by the service): adding the invoice again queues its entry again. */
export const NOT_SENT: readonly EmailState[] = ['failed', 'cancelled'];
/** "Send again" (explicit, confirmed): everything but an entry waiting or being sent. */
export const RESENDABLE: readonly EmailState[] = ['failed', 'cancelled', 'sent', 'requested', 'sendingAtService', 'unknown'];
const MAYBE_SENT = MAYBE_SENT_EMAIL_STATES;

/** dd/MM in Vietnam time, as the cashier reads it. */
function day(at: string): string {
  const d = new Date(Date.parse(at) + 7 * 3_600_000);
  return `${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

const when = (r: Row) => r.done_at ?? r.updated_at;

/** Why an invoice is not queued again by an add or a retry, in the cashier's words. */
export function reasonFor(r: Row, action: 'add' | 'retry'): Bilingual {
  const to = r.receiver_email.replaceAll(';', ', ');
  const on = day(when(r));
  const tail =
    action === 'add' ? { en: 'skipped', vi: 'bỏ qua' } : { en: 'choose “send again” to send it once more', vi: 'chọn “Gửi lại” nếu muốn gửi thêm lần nữa' };
  switch (r.state) {
    case 'sent':
      return { en: `already sent on ${on} to ${to}: ${tail.en}`, vi: `đã gửi ngày ${on} tới ${to}: ${tail.vi}` };
    case 'requested':
      return { en: `the service took it on ${on} and will send it to ${to}: ${tail.en}`, vi: `dịch vụ đã nhận ngày ${on} và sẽ gửi tới ${to}: ${tail.vi}` };
    case 'sendingAtService':
      return { en: `the service has been sending it to ${to} since ${on}: ${tail.en}`, vi: `dịch vụ đang gửi tới ${to} từ ngày ${on}: ${tail.vi}` };
    case 'unknown':
      return {
        en: `sent on ${on} to ${to} without a known outcome (it may have arrived): ${tail.en}`,
        vi: `đã gửi ngày ${on} tới ${to} nhưng không rõ kết quả (có thể đã tới nơi): ${tail.vi}`,
      };
    case 'cancelled':
      return {
        en: `cancelled after an earlier send that may have arrived: ${tail.en}`,
        vi: `đã hủy sau một lần gửi có thể đã tới nơi: ${tail.vi}`,
      };
    default:
      return r.state === 'sending'
        ? { en: 'being sent right now: skipped', vi: 'đang được gửi: bỏ qua' }
        : { en: 'already in the queue: skipped', vi: 'đã có trong hàng đợi: bỏ qua' };
  }
}

export function skipOf(r: Row, line: number | null, index: number | null): EmailSkip {
  const reason = reasonFor(r, 'add');
  return {
    line,
    index,
    transactionId: r.transaction_id,
    entryId: r.id,
    state: r.state,
    at: when(r),
    receiverEmail: r.receiver_email,
    reason: { en: `${r.transaction_id}: ${reason.en}`, vi: `${r.transaction_id}: ${reason.vi}` },
  };
}

export function leftOf(id: number, r: Row | undefined, reason: Bilingual): EmailLeft {
  return { id, transactionId: r?.transaction_id ?? null, state: r?.state ?? null, reason };
}

export const HISTORY_SQL = {
  /** Copies the entry's current outcome into its history (before it is queued again). */
  archive: `INSERT INTO email_attempts (entry_id, state, send_email_status, error_code, receiver_email, cc_email, bcc_email, message, message_vi, at)
            SELECT id, state, send_email_status, error_code, receiver_email, cc_email, bcc_email, last_error, last_error_vi, coalesce(done_at, updated_at)
            FROM email_outbox WHERE id = ?`,
  latest: 'SELECT state FROM email_attempts WHERE entry_id = ? ORDER BY id DESC LIMIT 1',
  list: 'SELECT * FROM email_attempts WHERE entry_id = ? ORDER BY id',
};

/** A cancelled entry may go back by a plain retry only when no earlier attempt may have reached the buyer. */
export function cancelledAfterMaybeSent(latestState: EmailState | undefined): boolean {
  return latestState !== undefined && MAYBE_SENT.includes(latestState);
}

interface AttemptRow {
  state: EmailState;
  send_email_status: number | null;
  error_code: string | null;
  receiver_email: string;
  cc_email: string;
  bcc_email: string;
  message: string | null;
  message_vi: string | null;
  at: string;
}

export function toAttempt(r: AttemptRow): EmailAttempt {
  return {
    state: r.state,
    sendEmailStatus: r.send_email_status,
    errorCode: r.error_code,
    receiverEmail: r.receiver_email,
    ccEmail: r.cc_email,
    bccEmail: r.bcc_email,
    message: r.message,
    messageVi: r.message_vi,
    at: r.at,
  };
}
