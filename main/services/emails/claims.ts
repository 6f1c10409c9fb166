import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
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
 * Who a process is, beyond its pid: the boot and the process's start time (Linux /proc), so a pid
 * reused after a reboot or by a later process is not taken for the owner. '' where unknown.
 */
export function processIdentity(pid: number): string {
  try {
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim().slice(0, 8);
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return boot && start ? `${boot}.${start}` : '';
  } catch {
    return '';
  }
}

let ownIdentity: string | undefined;

/** A claim token: "<pid>:<random>[:<identity>]". */
export function newClaimToken(): string {
  ownIdentity ??= processIdentity(process.pid);
  const token = `${process.pid}:${randomBytes(8).toString('hex')}`;
  return ownIdentity ? `${token}:${ownIdentity}` : token;
}

/**
 * A claim is alive while its pid answers signal 0 and, when the claim recorded the owner's
 * identity and this system can read the pid's, that identity is the same. When in doubt: alive
 * (a claim kept too long waits for a restart; a claim taken from a live owner sends twice).
 */
export function defaultClaimAlive(token: string): boolean {
  const [pidText, , identity] = token.split(':');
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid !== process.pid) {
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
    }
  }
  if (!identity) return true;
  const current = processIdentity(pid);
  return current === '' || current === identity;
}

/** Verdicts grouped by what they write: most entries of a batch share one, so one UPDATE per group. */
export function groupVerdicts(verdicts: ReadonlyMap<number, Verdict>): Array<{ v: Verdict; ids: number[] }> {
  const groups = new Map<string, { v: Verdict; ids: number[] }>();
  for (const [id, v] of verdicts) {
    const key = JSON.stringify([v.state, v.sendEmailStatus, v.errorCode, v.retryable, v.message?.en ?? null, v.message?.vi ?? null]);
    const g = groups.get(key);
    if (g) g.ids.push(id);
    else groups.set(key, { v, ids: [id] });
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
