import { setTimeout as sleep } from 'node:timers/promises';
import type { IssueEntry, IssueRunnerStatus, IssueState } from '../../../common/calls/issuing';
import type { IssuingServiceDeps } from '../../services/issuing';
import { listText } from '../options';
import { ExitCode, UsageError, type CommandContext } from '../registry';
import type { CliServices } from '../services';

/**
 * What the issuing commands share: the app's issue queue opened for the CLI, a run of it until
 * the chosen invoices are settled, and how an invoice is printed.
 */

/** States in which an invoice still waits for something: the service, a lookup, another process. */
const OPEN: ReadonlySet<IssueState> = new Set(['queued', 'issuing', 'unknown']);

/**
 * The issue queue's timing for a command that runs and exits: back-off like the email queue's,
 * `--timeout` for the issue request, and EINVOICE_ISSUE_SETTLE_MS (tests, support) for how long
 * an unknown invoice is looked up before "absent" is believed — safe to shorten, because the
 * service never issues one RefID twice.
 */
function issuingTuning(ctx: CommandContext): Partial<IssuingServiceDeps> {
  const raw = ctx.io.env.EINVOICE_ISSUE_SETTLE_MS?.trim();
  let settle: Partial<IssuingServiceDeps> = {};
  if (raw) {
    const ms = Number(raw);
    if (!Number.isInteger(ms) || ms < 0) {
      throw new UsageError({
        en: `EINVOICE_ISSUE_SETTLE_MS must be a whole number of milliseconds (got ${raw}).`,
        vi: `EINVOICE_ISSUE_SETTLE_MS phải là số nguyên mili giây (đang là ${raw}).`,
      });
    }
    settle = { settleWindowMs: ms, lookupDelaysMs: [Math.max(50, Math.round(ms / 3))] };
  }
  return {
    backoffBaseMs: 500,
    backoffMaxMs: 30_000,
    ...(ctx.globals.timeoutMs !== undefined ? { issueTimeoutMs: ctx.globals.timeoutMs } : {}),
    ...settle,
  };
}

/** The app's services with the issue queue tuned for the command line. */
export function openIssuing(ctx: CommandContext, requireService: boolean): Promise<CliServices> {
  return ctx.services({ requireService, issuing: issuingTuning(ctx) });
}

export interface RunReport {
  /** The sign-in is missing or was refused. */
  paused: boolean;
  /** Ended by SIGINT/SIGTERM. */
  aborted: boolean;
}

/** When to look again: the earliest due invoice, never before the runner's own back-off ends. */
function nextWake(waiting: readonly IssueEntry[], st: IssueRunnerStatus): number {
  const now = Date.now();
  let at = Number.POSITIVE_INFINITY;
  // An invoice another process is issuing: look again shortly.
  for (const e of waiting) at = Math.min(at, e.state === 'issuing' ? now + 250 : e.nextAttemptAt ? Date.parse(e.nextAttemptAt) : now);
  if ((st.state === 'offline' || st.state === 'backoff') && st.nextAttemptAt) at = Math.max(at, Date.parse(st.nextAttemptAt));
  return Math.max(at, now + 100);
}

/**
 * Runs the issue queue until the invoices `ids` are issued or failed, or their outcome is still
 * unknown when the lookups would go past `waitMs`, or the service stays unreachable that long.
 * SIGINT/SIGTERM stop the runner at once: a request in flight leaves its invoices `unknown`
 * (looked up, never sent blindly again).
 */
export async function runQueue(ctx: CommandContext, cli: CliServices, ids: readonly number[], waitMs: number): Promise<RunReport> {
  const { issuing } = cli.services;
  const { runner } = issuing;
  const deadline = Date.now() + waitMs;
  let stopped = false;
  const stop = () => {
    stopped = true;
    void runner.stop(0);
  };
  ctx.signal.addEventListener('abort', stop, { once: true });
  // A pass that found the token refused waits for a sign-in, which cannot happen in this process.
  let pausedSince: number | null = null;
  const watch = setInterval(() => {
    pausedSince = runner.status().state === 'paused' ? (pausedSince ?? Date.now()) : null;
    if (cli.refused || (pausedSince !== null && Date.now() - pausedSince > 5_000)) stop();
  }, 200);
  const waiting = () => ids.map((id) => issuing.queue.get(id)).filter((e): e is IssueEntry => e !== null && OPEN.has(e.state));
  try {
    while (!stopped) {
      await runner.kick({ signInTimeoutMs: 3_000 });
      if (stopped) break;
      const open = waiting();
      const st = runner.status();
      if (open.length === 0 || st.state === 'paused') break;
      const at = nextWake(open, st);
      if (at > deadline) break;
      if (at - Date.now() >= 1_000) {
        const s = Math.ceil((at - Date.now()) / 1000);
        ctx.progress({
          en: `${open.length} invoices still waiting; looking again in ${s} s…`,
          vi: `Còn ${open.length} hóa đơn đang chờ; thử lại sau ${s} giây…`,
        });
      }
      await sleep(at - Date.now(), undefined, { signal: ctx.signal }).catch(() => {});
    }
  } finally {
    clearInterval(watch);
    ctx.signal.removeEventListener('abort', stop);
  }
  if (stopped) await runner.stop(0);
  return { paused: cli.refused || runner.status().state === 'paused', aborted: ctx.signal.aborted };
}

export interface IssueItem {
  id: number | null;
  refId: string;
  state: IssueState | 'rejected';
  invSeries: string | null;
  transactionId: string | null;
  invNo: string | null;
  invoiceCode: string | null;
  errorCode: string | null;
  message: string | null;
  messageVi: string | null;
  draftId: string | null;
  /** The FILE (or `--draft ID`) this invoice came from, for `einvoice issue`. */
  input?: string;
  /** The field a refused input is wrong in. */
  field?: string | null;
}

export function itemJson(e: IssueEntry, input?: string): IssueItem {
  return {
    id: e.id,
    refId: e.refId,
    state: e.state,
    invSeries: e.invSeries,
    transactionId: e.transactionId,
    invNo: e.invNo,
    invoiceCode: e.invoiceCode,
    errorCode: e.errorCode,
    message: e.lastError?.en ?? null,
    messageVi: e.lastError?.vi ?? null,
    draftId: e.draftId,
    ...(input !== undefined ? { input } : {}),
  };
}

const STATE_VI: Record<IssueItem['state'], string> = {
  queued: 'đang chờ',
  issuing: 'đang phát hành',
  issued: 'đã phát hành',
  failed: 'bị từ chối',
  unknown: 'chưa rõ kết quả',
  rejected: 'dữ liệu không hợp lệ',
};

/** One line per invoice: where it came from, its numbers or why not. */
export function itemsText(items: readonly IssueItem[]): string {
  return listText(items, 'Không có hóa đơn nào / No invoices.', (i) => {
    const who = [i.id !== null ? `#${i.id}` : null, i.input, i.refId].filter(Boolean).join(' ');
    const numbers = i.state === 'issued' ? ` ${i.invSeries ?? ''} ${i.invNo ?? '(số chưa có / no number yet)'} ${i.transactionId ?? ''}` : '';
    const code = i.errorCode ? ` [${i.errorCode}]` : '';
    const field = i.field ? ` ${i.field}:` : '';
    const msg = i.message && i.state !== 'issued' ? `${field} ${i.messageVi} / ${i.message}` : '';
    return `${who}: ${STATE_VI[i.state]} / ${i.state}${numbers}${code}${msg ? ` —${msg}` : ''}`;
  });
}

/**
 * 2 when an input was refused (nothing was issued by the run), 1 when any invoice failed or its
 * outcome is unknown, 3 when invoices wait for a sign-in, 4 when they wait for the service, else 0.
 */
export function exitFor(items: readonly IssueItem[], report: RunReport): number {
  if (items.some((i) => i.state === 'rejected')) return ExitCode.Usage;
  if (items.some((i) => i.state === 'failed' || i.state === 'unknown')) return ExitCode.SomeFailed;
  if (items.some((i) => i.state === 'queued' || i.state === 'issuing')) return report.paused ? ExitCode.Auth : ExitCode.Unreachable;
  return ExitCode.Ok;
}
