import type { FollowUpState, IssueEntry, IssueState } from '../../../common/calls/issuing';
import type { Bilingual, InvoiceKind } from '../../../common/model';
import type { SignType } from '../../../common/model/issuing';

/** One row of `issue_queue` as SQLite returns it, and how it reads in the contract. */
export interface Row {
  id: number;
  profile_id: string;
  draft_id: string | null;
  ref_id: string;
  inv_series: string;
  inv_date: string;
  kind: InvoiceKind;
  sign_type: SignType;
  certificate_sn: string | null;
  buyer_name: string;
  buyer_email: string;
  total: string;
  currency: string;
  state: IssueState;
  claim_token: string | null;
  attempts: number;
  next_attempt_at: string;
  unknown_since: string | null;
  lookups: number;
  service_has: number;
  transaction_id: string | null;
  inv_no: string | null;
  invoice_code: string | null;
  issued_at: string | null;
  error_code: string | null;
  last_error: string | null;
  retryable: number;
  reopened_at: string | null;
  download_state: FollowUpState;
  email_state: IssueEntry['email'];
  email_id: number | null;
  created_at: string;
  updated_at: string;
}

export const CRASHED_WHILE_ISSUING: Bilingual = {
  en: 'The app stopped while this invoice was being issued: it may have been issued. The service is asked before anything is sent again.',
  vi: 'Ứng dụng bị dừng khi đang phát hành hóa đơn này: có thể hóa đơn đã được phát hành. Ứng dụng sẽ hỏi lại hệ thống trước khi gửi lại.',
};

export function toEntry(r: Row): IssueEntry {
  return {
    id: r.id,
    draftId: r.draft_id,
    refId: r.ref_id,
    invSeries: r.inv_series,
    invDate: r.inv_date,
    kind: r.kind,
    signType: r.sign_type,
    buyerName: r.buyer_name,
    buyerEmail: r.buyer_email,
    total: r.total,
    currency: r.currency,
    state: r.state,
    transactionId: r.transaction_id,
    invNo: r.inv_no,
    invoiceCode: r.invoice_code,
    issuedAt: r.issued_at,
    errorCode: r.error_code,
    lastError: r.last_error ? (JSON.parse(r.last_error) as Bilingual) : null,
    retryable: r.retryable === 1,
    reopened: r.reopened_at !== null,
    attempts: r.attempts,
    nextAttemptAt: r.state === 'queued' || r.state === 'unknown' ? r.next_attempt_at : null,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    download: r.download_state,
    email: r.email_state,
    emailId: r.email_id,
  };
}

export const json = (b: Bilingual | null): string | null => (b ? JSON.stringify({ en: b.en, vi: b.vi }) : null);
