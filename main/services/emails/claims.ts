import { AppError } from '../../../common/errors';
import { emailFlags, type InvoiceKind } from '../../../common/model';
import type { SendEmailParameter } from '../../../common/model';
import type { Recipients } from './input';
import type { Verdict } from './judge';

/** One claimed entry: what goes into the sendemail body. */
export interface ClaimedEntry extends Recipients {
  id: number;
  transactionId: string;
  attempts: number;
}

/** A batch taken by one process: `state = 'sending'`, `claim_token = token`, armed (its request may leave). */
export interface Claim {
  token: string;
  kind: InvoiceKind;
  profileId: string;
  entries: ClaimedEntry[];
}

/** The sendemail body of a claim: one invoice kind per request. */
export function requestFor(claim: Claim): SendEmailParameter {
  return {
    SendEmailDatas: claim.entries.map((e) => ({
      TransactionID: e.transactionId,
      ReceiverName: e.receiverName,
      ReceiverEmail: e.receiverEmail,
      CCEmail: e.ccEmail === '' ? null : e.ccEmail,
      BCCEmail: e.bccEmail === '' ? null : e.bccEmail,
      ReplyEmail: e.replyEmail,
    })),
    ...emailFlags(claim.kind),
  };
}

/** The service's verdicts for the entries of one claim. */
export interface Settlement {
  token: string;
  verdicts: ReadonlyMap<number, Verdict>;
}

/** Is the process that holds a claim still alive? */
export type ClaimAlive = (token: string) => boolean;

/**
 * Verdicts grouped by what they write: most entries of a batch share one, so one UPDATE per group.
 * Shared verdict objects (judge.ts) are grouped by identity first, so a batch compares a few, not each.
 */
export function groupVerdicts(verdicts: ReadonlyMap<number, Verdict>): Array<{ v: Verdict; ids: number[] }> {
  const byObject = new Map<Verdict, number[]>();
  for (const [id, v] of verdicts) {
    const ids = byObject.get(v);
    if (ids) ids.push(id);
    else byObject.set(v, [id]);
  }
  const groups = new Map<string, { v: Verdict; ids: number[] }>();
  for (const [v, ids] of byObject) {
    const key = JSON.stringify([v.state, v.sendEmailStatus, v.errorCode, v.retryable, v.message?.en ?? null, v.message?.vi ?? null]);
    const g = groups.get(key);
    if (g) g.ids.push(...ids);
    else groups.set(key, { v, ids });
  }
  return [...groups.values()];
}

/** The rows a claim holds are not the rows expected: another process changed them. Stop. */
export function claimLost(expected: number, changed: number): AppError {
  return new AppError('email_claim_lost', {
    en: `The email queue changed under this batch (${changed} of ${expected} entries still held); sending stops.`,
    vi: `Hàng đợi email đã bị thay đổi trong lúc gửi lô này (còn giữ ${changed}/${expected} email); dừng gửi.`,
  });
}

export const CRASHED_WHILE_SENDING = {
  en: 'The app stopped while this email was being sent: it may or may not have reached the service. Check, then retry or cancel.',
  vi: 'Ứng dụng bị dừng khi đang gửi email này: không rõ yêu cầu đã tới dịch vụ hay chưa. Hãy kiểm tra rồi gửi lại hoặc hủy.',
};
