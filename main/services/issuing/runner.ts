import type { IssueRunnerStatus } from '../../../common/calls/issuing';
import type { Bilingual, InvoiceKind } from '../../../common/model';
import { MAX_ISSUE_BATCH } from '../../../common/model/issuing';
import { isApiError, redact, type IssueOutcome, type StatusItem } from '../api';
import { judgeCall, judgeOutcome } from './judge';
import { refreshCodes, settleUnknown, type LookupContext } from './lookups';
import { GroupCommit } from '../scheduling/group-commit';
import { Retimer, type PacingTuning, type PassOptions, type WorkerPorts, type WorkerSession } from '../scheduling/retimer';
import type { IssueClaim, IssueQueue, IssueVerdict } from './queue';

export type RunnerSession = WorkerSession;

export interface IssueRunnerTuning extends PacingTuning {
  /** How long an unknown invoice is looked up before "absent" is believed (it can take a while to show). */
  settleWindowMs?: number;
  /** The waits between lookups of one unknown invoice (the last repeats). */
  lookupDelaysMs?: readonly number[];
  /** How often issued with-code invoices are asked for the tax authority's code that comes later. */
  codeCheckMs?: number;
}

export interface IssueRunnerDeps<S extends RunnerSession> extends IssueRunnerTuning, WorkerPorts<S> {
  queue: IssueQueue;
  /** One issue request (ApiClient.issue); never retried. */
  issue: (session: S, claim: IssueClaim, signal: AbortSignal) => Promise<IssueOutcome>;
  status: (session: S, refIds: string[], kind: InvoiceKind, signal: AbortSignal) => Promise<StatusItem[]>;
  /** Status of with-code invoices by TransactionID (their code comes later). */
  statusByTransaction: (session: S, transactionIds: string[], signal: AbortSignal) => Promise<StatusItem[]>;
  /** The wait between two requests on one series. */
  gapMs: () => number;
  /** Invoices just issued (their follow-ups can start). */
  onIssued?: (ids: number[]) => void;
}

type LaneEnd = 'done' | 'stop' | 'session';

/** A failure before the issue request left (looking up the certificate, say): the claim goes back as it was. */
export class NotSentError extends Error {
  constructor(readonly reason: unknown) {
    super(reason instanceof Error ? reason.message : String(reason));
  }
}

function message(error: unknown, secrets: readonly string[]): Bilingual {
  const en = error instanceof Error ? error.message : String(error);
  const vi = error && typeof error === 'object' && 'messageVi' in error ? String((error as { messageVi: unknown }).messageVi) : en;
  return { en: redact(en, secrets), vi: redact(vi, secrets) };
}

/**
 * Issues the queue: the series run in parallel, each strictly one request at a time with a gap
 * after it (the claim enforces this across processes too), at most 30 invoices per request.
 * Before anything else each pass asks the service about invoices whose outcome is unknown; an
 * unknown invoice is never sent again until a lookup by RefID has settled it.
 */
export class IssueRunner<S extends RunnerSession> {
  private readonly retimer: Retimer<PassOptions>;
  private batchCap = MAX_ISSUE_BATCH;
  private inFlight = 0;
  private state: IssueRunnerStatus = { state: 'idle', nextAttemptAt: null, lastError: null };
  private readonly secrets: string[] = [];
  private codesCheckedAt = 0;

  private readonly commits: GroupCommit<IssueClaim | null>;

  constructor(private readonly deps: IssueRunnerDeps<S>) {
    this.commits = new GroupCommit((fn) => deps.queue.together(fn));
    this.retimer = new Retimer<PassOptions>(deps, (options) => this.drain(options), {
      // The next pass waits for a sign-in no longer than the shortest wait asked for.
      merge: (running, asked) =>
        asked.signInTimeoutMs === undefined ? running : { signInTimeoutMs: Math.min(asked.signInTimeoutMs, running.signInTimeoutMs ?? Infinity) },
      onError: (error) => this.deps.log?.('error', `issue queue: ${message(error, this.secrets).en}`),
      onEnd: () => this.deps.onChange?.(),
    });
  }

  private get stopped(): boolean {
    return this.retimer.stopped;
  }

  private schedule(at: number | null): void {
    this.retimer.schedule(at);
  }

  private together(work: () => IssueClaim | null): Promise<IssueClaim | null> {
    return this.commits.run(work);
  }

  private now(): number {
    return this.retimer.now();
  }

  get issuing(): number {
    return this.inFlight;
  }

  status(): IssueRunnerStatus {
    return { ...this.state };
  }

  private set(patch: Partial<IssueRunnerStatus>): void {
    const next = { ...this.state, ...patch };
    if (JSON.stringify(next) === JSON.stringify(this.state)) return;
    this.state = next;
    this.deps.onChange?.();
  }

  /** Starts a pass (or makes the running one look again, keeping the shortest sign-in wait asked for). */
  kick(options: PassOptions = {}): Promise<void> {
    return this.retimer.kick(options);
  }

  private waitOffline(p: Bilingual | null): void {
    const at = this.retimer.retryAt();
    this.set({ state: 'offline', nextAttemptAt: new Date(at).toISOString(), ...(p ? { lastError: p } : {}) });
    this.deps.checkConnectivity?.();
    this.schedule(at);
  }

  private async session(options: PassOptions): Promise<S | null> {
    try {
      const s = await this.retimer.session(
        (signal) => this.deps.ready(signal),
        options,
        () => this.set({ state: 'paused' }),
      );
      if (s === 'timeout') {
        this.set({ state: 'paused' });
        return null;
      }
      if (s.token && !this.secrets.includes(s.token)) this.secrets.push(s.token);
      return s;
    } catch (error) {
      if (this.stopped) return null;
      if (options.signInTimeoutMs !== undefined && !this.retimer.abort.signal.aborted) this.set({ state: 'paused' });
      else this.waitOffline(message(error, this.secrets));
      return null;
    }
  }

  private nothingDue(profileId: string): boolean {
    const { queue } = this.deps;
    if (queue.dueSeries(profileId).length > 0 || queue.unknownDue(profileId).length > 0) return false;
    const codesAt = queue.codesWaiting(profileId, 1).length > 0 ? this.codesCheckedAt + this.codeCheckMs() : null;
    if (codesAt !== null && codesAt <= this.now()) return false;
    // A series another process is issuing on is looked at again after its request, not in a loop.
    const poll = queue.waitingOnBusySeries(profileId) ? this.now() + Math.max(this.deps.gapMs(), 500) : null;
    const queued = queue.nextDue(profileId);
    const times = [queued ? Date.parse(queued) : null, codesAt, poll].filter((t): t is number => t !== null);
    const at = times.length > 0 ? Math.min(...times) : null;
    const next = at === null ? null : new Date(at).toISOString();
    this.schedule(at);
    this.set({ state: at !== null ? 'backoff' : 'idle', nextAttemptAt: next });
    return true;
  }

  private async drain(options: PassOptions): Promise<void> {
    const { queue } = this.deps;
    queue.recover();
    for (;;) {
      if (this.stopped) return;
      const profileId = this.deps.activeProfileId();
      if (this.nothingDue(profileId)) return;
      if (this.deps.isOnline && !this.deps.isOnline()) return this.waitOffline(null);
      const session = await this.session(options);
      if (!session || session.profile.id !== profileId) return;
      if ((await this.settleUnknown(session, profileId)) === 'stop') return;
      if (this.now() >= this.codesCheckedAt + this.codeCheckMs()) await this.refreshCodes(session, profileId);
      const series = queue.dueSeries(profileId);
      if (series.length === 0) continue;
      this.set({ state: 'issuing', nextAttemptAt: null });
      if ((await this.lanes(session, profileId, series)) === 'stop') return;
    }
  }

  /** A lane per due series; a series that comes due while others run (its gap ended) gets its lane at once. */
  private async lanes(session: S, profileId: string, first: string[]): Promise<'done' | 'stop'> {
    const running = new Map<string, Promise<{ series: string; end: LaneEnd }>>();
    const start = (list: readonly string[]) => {
      for (const series of list) {
        if (!running.has(series))
          running.set(
            series,
            this.lane(session, profileId, series).then((end) => ({ series, end })),
          );
      }
    };
    start(first);
    while (running.size > 0) {
      const { series, end } = await Promise.race(running.values());
      running.delete(series);
      if (end === 'stop') {
        await Promise.all(running.values());
        return 'stop';
      }
      if (!this.stopped) start(this.deps.queue.dueSeries(profileId));
    }
    return 'done';
  }

  /** One series: claim, send, settle (and claim the next batch), wait the gap — until nothing of it is due. */
  private async lane(session: S, profileId: string, series: string): Promise<LaneEnd> {
    const { queue } = this.deps;
    let claim = await this.together(() => queue.claim(profileId, series, this.batchCap));
    while (claim) {
      if (this.stopped) {
        queue.release(claim, new Date(this.now()), null);
        return 'stop';
      }
      const gap = this.deps.gapMs();
      this.inFlight += claim.entries.length;
      let next: IssueClaim | null = null;
      try {
        const outcome = await this.deps.issue(session, claim, this.retimer.abort.signal);
        const verdicts = judgeOutcome(claim, outcome, gap);
        const done = claim;
        next = await this.together(() => queue.settle(done, verdicts, gap, this.stopped ? undefined : { max: this.batchCap }));
        this.afterSettle(verdicts, series);
      } catch (error) {
        const end = await this.onFailure(session, claim, error, gap);
        if (end) return end;
      } finally {
        this.inFlight -= claim.entries.length;
        this.deps.onChange?.();
      }
      if (!next && gap > 0) await new Promise((r) => setTimeout(r, gap));
      claim = next ?? (await this.together(() => queue.claim(profileId, series, this.batchCap)));
    }
    return 'done';
  }

  private afterSettle(verdicts: ReadonlyMap<number, IssueVerdict>, series: string): void {
    this.retimer.failures = 0;
    const issued = [...verdicts].filter(([, v]) => v.state === 'issued').map(([id]) => id);
    if (issued.length > 0) this.deps.onIssued?.(issued);
    if ([...verdicts.values()].some((v) => v.state === 'queued')) {
      // This process never overlaps its own requests on a series: another counter is issuing on it.
      this.set({
        lastError: {
          en: `Another PC is issuing on series ${series} at the same time; its invoices wait their turn. Keep one counter per series.`,
          vi: `Một máy khác đang phát hành cùng ký hiệu ${series}; hóa đơn được xếp lượt chờ. Mỗi ký hiệu chỉ nên phát hành từ một quầy.`,
        },
      });
    }
  }

  private all(claim: IssueClaim, v: IssueVerdict): Map<number, IssueVerdict> {
    return new Map(claim.entries.map((e) => [e.id, v]));
  }

  private async onFailure(session: S, claim: IssueClaim, error: unknown, gap: number): Promise<LaneEnd | null> {
    const { queue } = this.deps;
    if (error instanceof NotSentError) {
      // Nothing left: the claim goes back, due after a wait (a refused sign-in pauses as usual).
      const p = message(error.reason, this.secrets);
      if (isApiError(error.reason) && error.reason.kind === 'auth') {
        queue.release(claim, new Date(this.now()), p);
        this.set({ state: 'paused', lastError: p });
        await this.deps.reportAuthFailure(session);
        return 'stop';
      }
      const at = this.retimer.retryAt();
      queue.release(claim, new Date(at), p);
      this.set({ state: 'backoff', lastError: p, nextAttemptAt: new Date(at).toISOString() });
      this.schedule(at);
      return 'stop';
    }
    const p = message(error, this.secrets);
    const kind = isApiError(error) ? error.kind : 'unexpected';
    switch (kind) {
      case 'cancelled':
        queue.release(claim, new Date(this.now()), null);
        return 'stop';
      case 'auth':
        queue.release(claim, new Date(this.now()), p);
        this.set({ state: 'paused', lastError: p });
        await this.deps.reportAuthFailure(session);
        return 'stop';
      case 'offline':
        queue.release(claim, new Date(this.now()), p);
        this.waitOffline(p);
        return 'stop';
      case 'rate_limited':
      case 'unavailable': {
        const at = this.retimer.retryAt(isApiError(error) ? (error.retryAfterMs ?? 0) : 0);
        queue.release(claim, new Date(at), p);
        this.set({ state: 'backoff', lastError: p, nextAttemptAt: new Date(at).toISOString() });
        this.schedule(at);
        return 'stop';
      }
      case 'rejected': {
        const code = isApiError(error) ? error.serviceCode : null;
        if (code && /^InvoiceQuantityTooLarge$/i.test(code) && claim.entries.length > 1) {
          this.batchCap = Math.max(1, Math.floor(claim.entries.length / 2));
          queue.release(claim, new Date(this.now()), null);
          return null;
        }
        // The whole request was refused with a call-level code and no items.
        const verdict = judgeCall(code ?? null, isApiError(error) ? (error.serviceDescription ?? null) : null, gap);
        queue.settle(claim, this.all(claim, verdict), gap);
        this.set({ lastError: verdict.state === 'issued' ? null : 'message' in verdict ? verdict.message : p });
        return null;
      }
      case 'config':
        queue.release(claim, new Date(this.now() + 60_000), p);
        this.set({ state: 'paused', lastError: p });
        return 'stop';
      default:
        // The request may have left and been acted on: unknown until the service is asked.
        queue.settle(claim, this.all(claim, { state: 'unknown', message: p }), gap);
        this.set({ lastError: p });
        if (kind === 'unexpected') this.deps.log?.('error', `issue queue: unexpected failure, ${claim.entries.length} invoices left unknown: ${p.en}`);
        return null;
    }
  }

  /** Asks the service about unknown invoices (lookups.ts); a failed lookup pauses or waits like a failed request. */
  async settleUnknown(session: S, profileId: string, options: { all?: boolean; ids?: readonly number[] } = {}): Promise<'ok' | 'stop'> {
    const r = await settleUnknown(this.lookups(), session, profileId, options);
    if (r.ok) return 'ok';
    const p = message(r.error, this.secrets);
    if (isApiError(r.error) && r.error.kind === 'auth') {
      this.set({ state: 'paused', lastError: p });
      await this.deps.reportAuthFailure(session);
    } else this.waitOffline(p);
    return 'stop';
  }

  private lookups(): LookupContext<S> {
    return { deps: this.deps, signal: this.retimer.abort.signal, now: () => this.now() };
  }

  private codeCheckMs(): number {
    return this.deps.codeCheckMs ?? 60_000;
  }

  private async refreshCodes(session: S, profileId: string): Promise<void> {
    this.codesCheckedAt = this.now();
    await refreshCodes(this.lookups(), session, profileId);
  }

  stop(graceMs?: number): Promise<void> {
    return this.retimer.stop(graceMs);
  }
}
