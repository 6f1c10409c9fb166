import { setImmediate as nextTurn } from 'node:timers/promises';
import type { EmailSenderStatus } from '../../../common/calls/emails';
import type { Bilingual, SendEmailParameter } from '../../../common/model';
import { isApiError, redact, type SendEmailOutcome } from '../api';
import { GroupCommit } from '../scheduling/group-commit';
import { Retimer, type PacingTuning, type PassOptions, type WorkerPorts, type WorkerSession } from '../scheduling/retimer';
import { requestFor, type Claim, type Settlement } from './claims';
import { judgeOutcome, refused, type Verdict } from './judge';
import type { Outbox } from './outbox';

/** What the sender needs from a sign-in: the profile it belongs to (its token is never stored or shown). */
export type SenderSession = WorkerSession;

/** How the sender paces itself and what it may ask of its host; the email service passes these through. */
export interface SenderTuning extends PacingTuning {
  /**
   * Requests in flight at most (default 4): one until an answer shows the sign-in works, then this
   * many, their database commits shared. 1 = strictly one request at a time.
   */
  lanes?: number;
}

export const DEFAULT_EMAIL_LANES = 4;

export interface SenderDeps<S extends SenderSession> extends SenderTuning, WorkerPorts<S> {
  outbox: Outbox;
  /** One sendemail call (ApiClient.sendEmail); never retried by the client. */
  send: (session: S, parameter: SendEmailParameter, signal: AbortSignal) => Promise<SendEmailOutcome>;
  /** Invoices per sendemail request. */
  batchSize: () => number;
}

export type FlushOptions = PassOptions;

/** How the lanes of a pass end: wait for the timer or a kick; sign in again first; look again. */
type LanesEnd = 'stop' | 'session' | 'again';

/** What the lanes of one pass share. */
interface Pass<S> {
  session: S;
  profileId: string;
  /** Set by the first lane that must stop the others: they finish their request, settle it and claim no more. */
  halt: LanesEnd | null;
  /** The first database failure of a lane: thrown once every lane has ended. */
  error: unknown;
  widened: boolean;
  authReported: boolean;
}

/** Text from the service, before it is stored or shown: no token, no Authorization header. */
function cleaned(p: Bilingual, secrets: readonly string[]): Bilingual {
  return { en: redact(p.en, secrets, { keepEmails: true }), vi: redact(p.vi, secrets, { keepEmails: true }) };
}

function message(error: unknown, secrets: readonly string[]): Bilingual {
  if (error && typeof error === 'object' && 'messageVi' in error && error instanceof Error) {
    return cleaned({ en: error.message, vi: String((error as { messageVi: unknown }).messageVi) }, secrets);
  }
  const text = error instanceof Error ? error.message : String(error);
  return cleaned({ en: text, vi: text }, secrets);
}

function cleanedVerdicts(verdicts: Map<number, Verdict>, secrets: readonly string[]): Map<number, Verdict> {
  for (const [id, v] of verdicts) {
    // Nothing from the service in it (a shared verdict of a batch that went well): kept as it is.
    if (v.errorCode === null && v.message === null) continue;
    verdicts.set(id, {
      ...v,
      errorCode: v.errorCode === null ? null : redact(v.errorCode, secrets, { keepEmails: true }),
      ...(v.message ? { message: cleaned(v.message, secrets) } : {}),
    });
  }
  return verdicts;
}

/**
 * Sends the outbox: one kind per request, `batchSize` entries at most, each entry judged by its
 * own SendEmailStatus/ErrorCode. Transient failures that certainly did not reach the service put
 * the batch back with a growing delay; an answer that may have reached it (timeout, reset,
 * unreadable answer, crash) leaves the entries `unknown` for the user. An auth refusal pauses
 * until the next sign-in. `kick()` starts a flush when there is something due.
 */
export class EmailSender<S extends SenderSession> {
  private readonly retimer: Retimer<FlushOptions>;
  private readonly commits: GroupCommit<Claim | null>;
  /** Shrinks when the service says a batch is too large. */
  private batchCap = Number.POSITIVE_INFINITY;
  private inFlight = 0;
  private status: EmailSenderStatus;
  /** The tokens of the sessions this sender used: never stored or shown. */
  private readonly secrets: string[] = [];

  constructor(private readonly deps: SenderDeps<S>) {
    this.status = { state: 'idle', nextAttemptAt: null, lastError: null, batchSize: deps.batchSize() };
    this.retimer = new Retimer<FlushOptions>(deps, (options) => this.drain(options), {
      onError: (error) => this.deps.log?.('error', `email sender: ${message(error, this.secrets).en}`),
      onEnd: () => this.deps.onChange?.(true),
    });
    this.commits = new GroupCommit((fn) => deps.outbox.together(fn));
  }

  /** How many entries are in a request right now (for the work-in-progress probe). */
  get sending(): number {
    return this.inFlight;
  }

  get busy(): boolean {
    return this.retimer.busy;
  }

  senderStatus(): EmailSenderStatus {
    return { ...this.status, batchSize: this.effectiveBatch() };
  }

  private effectiveBatch(): number {
    return Math.max(1, Math.min(this.deps.batchSize(), this.batchCap));
  }

  private width(): number {
    return Math.max(1, Math.floor(this.deps.lanes ?? DEFAULT_EMAIL_LANES));
  }

  private setStatus(patch: Partial<EmailSenderStatus>): void {
    this.status = { ...this.status, ...patch };
    this.deps.onChange?.(true);
  }

  /** Starts a flush (or makes the running one look again). */
  kick(options: FlushOptions = {}): Promise<void> {
    return this.retimer.kick(options);
  }

  /** Runs until nothing is due (or offline / not signed in), then resolves. */
  flush(options: FlushOptions = {}): Promise<void> {
    return this.kick(options);
  }

  /** Waits for a session for `profileId`; null = stop this drain (offline, not signed in, stopping). */
  private async sessionFor(profileId: string, options: FlushOptions): Promise<S | null> {
    let session: S | 'timeout';
    try {
      session = await this.retimer.session(
        (signal) => this.deps.ready(signal),
        options,
        () => this.setStatus({ state: 'paused' }),
      );
    } catch (error) {
      if (this.retimer.stopped) return null;
      // Endpoint unavailable (e.g. the built-in sandbox is stopped): offline.
      const p = message(error, this.secrets);
      const at = this.retimer.retryAt();
      this.setStatus({ state: 'offline', lastError: p, nextAttemptAt: new Date(at).toISOString() });
      this.deps.checkConnectivity?.();
      this.retimer.schedule(at);
      return null;
    }
    if (session === 'timeout') {
      this.setStatus({ state: 'paused' });
      return null;
    }
    if (session.token && !this.secrets.includes(session.token)) this.secrets.push(session.token);
    return session.profile.id === profileId ? session : null;
  }

  /** Sends while something is due, online and signed in, for the active profile. */
  private async drain(options: FlushOptions): Promise<void> {
    this.deps.outbox.recover();
    let session: S | null = null;
    for (;;) {
      if (this.retimer.stopped) return;
      const profileId = this.deps.activeProfileId();
      if (this.nothingDue(profileId)) return;
      if (this.deps.isOnline && !this.deps.isOnline()) {
        // Wait for `app.online` (the service kicks us) — and try again later anyway.
        this.setStatus({ state: 'offline' });
        this.retimer.schedule(this.retimer.now() + Math.max(5_000, this.retimer.backoff()));
        return;
      }
      if (!session || session.profile.id !== profileId) {
        session = await this.sessionFor(profileId, options);
        if (!session) {
          if (this.retimer.stopped || this.status.state === 'offline' || this.status.state === 'paused') return;
          continue; // the active profile changed meanwhile
        }
      }
      const end = await this.lanes(session, profileId);
      if (end === 'stop') return;
      if (end === 'session') session = null;
    }
  }

  /**
   * Up to `lanes` requests in flight: one until an answer shows the session works, then the rest
   * join. Each lane claims and arms a batch, sends it once the arm is committed, and records the
   * answer in the transaction that arms its next batch; lanes whose turns come together share
   * that transaction (one fsync for all of them).
   */
  private async lanes(session: S, profileId: string): Promise<LanesEnd> {
    const pass: Pass<S> = { session, profileId, halt: null, error: null, widened: false, authReported: false };
    const running: Array<Promise<void>> = [];
    const widen = () => {
      if (pass.widened) return;
      pass.widened = true;
      for (let i = 1; i < this.width(); i++) running.push(this.lane(pass, widen));
    };
    running.push(this.lane(pass, widen));
    // Lanes join only while the first still runs, so this sees every one of them.
    for (let i = 0; i < running.length; i++) await running[i];
    if (pass.error) throw pass.error;
    return pass.halt ?? 'again';
  }

  /** May a lane arm another batch? Asked inside the transaction that would arm it. */
  private mayClaim(pass: Pass<S>): boolean {
    return !this.retimer.stopped && pass.halt === null && this.deps.activeProfileId() === pass.profileId && (!this.deps.isOnline || this.deps.isOnline());
  }

  private async lane(pass: Pass<S>, widen: () => void): Promise<void> {
    const { outbox } = this.deps;
    /** The last answer's verdicts, written in the same transaction as the next claim. */
    let settled: Settlement | null = null;
    /** Verdicts handed to a shared commit that has not succeeded yet. */
    let unwritten: Settlement | null = null;
    try {
      for (;;) {
        const previous = settled;
        settled = null;
        unwritten = previous;
        const claim = await this.commits.run(() => {
          if (this.mayClaim(pass)) return outbox.claim(pass.profileId, this.effectiveBatch(), previous);
          if (previous) outbox.settle(previous);
          return null;
        });
        unwritten = null;
        if (!claim) return;
        if (this.status.state !== 'flushing') this.setStatus({ state: 'flushing' });
        const result = await this.sendClaim(claim, pass.session);
        if (result.ok) {
          settled = { token: claim.token, verdicts: cleanedVerdicts(judgeOutcome(claim.entries, result.outcome), this.secrets) };
          if (pass.halt === null) {
            // An answer that came back after another lane stopped the pass leaves its failure count and message.
            this.retimer.failures = 0;
            if (this.status.lastError !== null) this.status = { ...this.status, lastError: null };
            widen();
          }
          this.deps.onChange?.();
          continue;
        }
        const end = await this.onFailure(claim, pass, result.error);
        this.deps.onChange?.();
        if (end) {
          pass.halt ??= end;
          return;
        }
        // A failure that comes back at once must not starve timers and signals of their turn.
        await nextTurn();
      }
    } catch (error) {
      pass.error ??= error;
      pass.halt ??= 'stop';
      // The shared commit failed: the answer that came back is still recorded, in its own transaction.
      if (unwritten) this.settleAlone(unwritten);
    }
  }

  private settleAlone(settlement: Settlement): void {
    try {
      this.deps.outbox.settle(settlement);
    } catch (error) {
      this.deps.log?.(
        'error',
        `email sender: an answer could not be recorded (its entries stay sending until restart, then unknown): ${message(error, this.secrets).en}`,
      );
    }
  }

  /** When nothing is due now: schedules the next due entry, shows idle or back-off, and says true. */
  private nothingDue(profileId: string): boolean {
    const { due, nextAt } = this.deps.outbox.due(profileId);
    if (due) return false;
    this.retimer.schedule(nextAt);
    const waiting = nextAt !== null;
    if (this.status.state !== 'offline' || !waiting) {
      this.setStatus({ state: waiting ? 'backoff' : 'idle', nextAttemptAt: waiting ? new Date(nextAt).toISOString() : null });
    }
    return true;
  }

  private async sendClaim(claim: Claim, session: S): Promise<{ ok: true; outcome: SendEmailOutcome } | { ok: false; error: unknown }> {
    this.inFlight += claim.entries.length;
    try {
      return { ok: true, outcome: await this.deps.send(session, requestFor(claim), this.retimer.abort.signal) };
    } catch (error) {
      return { ok: false, error };
    } finally {
      this.inFlight -= claim.entries.length;
    }
  }

  /** When to try again: the first lane to fail in a pass counts the failure, the ones after it do not. */
  private retryAt(pass: Pass<S>, atLeastMs = 0): number {
    return pass.halt === null ? this.retimer.retryAt(atLeastMs) : this.retimer.now() + Math.max(atLeastMs, this.retimer.backoff());
  }

  /** Records a failed request; says how the pass ends (null: this lane goes on). */
  private async onFailure(claim: Claim, pass: Pass<S>, error: unknown): Promise<LanesEnd | null> {
    const { outbox } = this.deps;
    const p = message(error, this.secrets);
    if (!isApiError(error)) {
      // Unexpected: the request may have left. Never guess "not sent".
      outbox.markUnknown(claim, p);
      this.deps.log?.('error', `email sender: unexpected failure, ${claim.entries.length} entries left unknown: ${p.en}`);
      return null;
    }
    switch (error.kind) {
      case 'unknown_outcome':
      case 'malformed':
      case 'network':
      case 'timeout':
        outbox.markUnknown(claim, p);
        this.setStatus({ lastError: p });
        return null;
      case 'cancelled':
        // Refused before it left (the client checks the signal first).
        outbox.release(claim, 0, null);
        return 'stop';
      case 'auth': {
        outbox.release(claim, 0, p);
        this.setStatus({ state: 'paused', lastError: p });
        // No lane claims more while the refusal is reported (reporting may try a renewal first).
        pass.halt ??= 'session';
        // Lanes refused with the same sign-in report it once.
        const first = !pass.authReported;
        pass.authReported = true;
        if (first) await this.deps.reportAuthFailure(pass.session);
        return 'session';
      }
      case 'offline': {
        const at = this.retryAt(pass);
        outbox.release(claim, at, p);
        this.setStatus({ state: 'offline', lastError: p, nextAttemptAt: new Date(at).toISOString() });
        this.deps.checkConnectivity?.();
        this.retimer.schedule(at);
        return 'stop';
      }
      case 'rate_limited':
      case 'unavailable': {
        const at = this.retryAt(pass, error.retryAfterMs ?? 0);
        outbox.release(claim, at, p);
        this.setStatus({ state: 'backoff', lastError: p, nextAttemptAt: new Date(at).toISOString() });
        this.retimer.schedule(at);
        return 'stop';
      }
      case 'rejected': {
        const code = error.serviceCode;
        if (code && /^InvoiceQuantityTooLarge$/i.test(code) && claim.entries.length > 1) {
          this.batchCap = Math.min(this.batchCap, Math.max(1, Math.floor(claim.entries.length / 2)));
          outbox.release(claim, 0, null);
          this.deps.log?.('warn', `email sender: the service refused ${claim.entries.length} invoices per request; using ${this.batchCap}`);
          return null;
        }
        outbox.settle({ token: claim.token, verdicts: cleanedVerdicts(new Map(claim.entries.map((e) => [e.id, refused(code, p)])), this.secrets) });
        return null;
      }
      case 'config':
      default: {
        const at = this.retryAt(pass);
        outbox.release(claim, at, p);
        this.setStatus({ state: 'paused', lastError: p });
        this.retimer.schedule(at);
        return 'stop';
      }
    }
  }

  /**
   * Lets the requests in flight finish (up to the grace time, `graceMs` overriding the tuning; 0
   * when the user interrupts), then aborts; their armed entries become `unknown`, never queued again.
   */
  stop(graceMs?: number): Promise<void> {
    return this.retimer.stop(graceMs);
  }
}
