import { setImmediate as nextTurn } from 'node:timers/promises';
import type { EmailSenderStatus } from '../../../common/calls/emails';
import type { Bilingual, SendEmailParameter } from '../../../common/model';
import { isApiError, redact, type SendEmailOutcome } from '../api';
import { requestFor, type Claim, type Settlement } from './claims';
import { judgeOutcome, refused, type Verdict } from './judge';
import type { Outbox } from './outbox';

/** What the sender needs from a sign-in: the profile it belongs to. */
export interface SenderSession {
  profile: { id: string };
  /** Redacted from every text of the service the sender stores or shows. */
  token?: string;
}

/** How the sender paces itself and what it may ask of its host; the email service passes these through. */
export interface SenderTuning {
  /** False while the connectivity check says the service is unreachable (then the sender waits for `app.online`). */
  isOnline?: () => boolean;
  /** Asks the connectivity check to look again (after a connection failure). */
  checkConnectivity?: () => void;
  now?: () => number;
  random?: () => number;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
  /** Backoff after transient errors: first delay and cap (ms). */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** How long `stop()` lets a request in flight finish before aborting it (its entries then become `unknown`). */
  stopGraceMs?: number;
}

export interface SenderDeps<S extends SenderSession> extends SenderTuning {
  outbox: Outbox;
  /** The active profile (entries are flushed for it). */
  activeProfileId: () => string;
  /** Resolves with a session; blocks while signed out / paused (AuthGate.ready). */
  ready: (signal: AbortSignal) => Promise<S>;
  /** The service refused the sign-in: pause until a new one (AuthGate.reportAuthFailure). */
  reportAuthFailure: (session: S) => Promise<void> | void;
  /** One sendemail call (ApiClient.sendEmail); never retried by the client. */
  send: (session: S, parameter: SendEmailParameter, signal: AbortSignal) => Promise<SendEmailOutcome>;
  /** Invoices per sendemail request. */
  batchSize: () => number;
  /** The queue or the sender's state changed. */
  onChange?: () => void;
}

export interface FlushOptions {
  /** Give up waiting for a sign-in after this long (the CLI); default: wait (the app). */
  signInTimeoutMs?: number;
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
  private running: Promise<void> | null = null;
  private rerun = false;
  private stopped = false;
  private readonly abort = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private failures = 0;
  /** Shrinks when the service says a batch is too large. */
  private batchCap = Number.POSITIVE_INFINITY;
  private inFlight = 0;
  private status: EmailSenderStatus;
  /** The tokens of the sessions this sender used: never stored or shown. */
  private readonly secrets: string[] = [];

  constructor(private readonly deps: SenderDeps<S>) {
    this.status = { state: 'idle', nextAttemptAt: null, lastError: null, batchSize: deps.batchSize() };
  }

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  /** How many entries are in a request right now (for the work-in-progress probe). */
  get sending(): number {
    return this.inFlight;
  }

  get busy(): boolean {
    return this.running !== null;
  }

  senderStatus(): EmailSenderStatus {
    return { ...this.status, batchSize: this.effectiveBatch() };
  }

  private effectiveBatch(): number {
    return Math.max(1, Math.min(this.deps.batchSize(), this.batchCap));
  }

  private setStatus(patch: Partial<EmailSenderStatus>): void {
    this.status = { ...this.status, ...patch };
    this.deps.onChange?.();
  }

  /** Starts a flush (or makes the running one look again). */
  kick(options: FlushOptions = {}): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.rerun = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.rerun = false;
          await this.drain(options);
        } while (this.rerun && !this.stopped);
      } catch (error) {
        if (!this.stopped) this.deps.log?.('error', `email sender: ${message(error, this.secrets).en}`);
      } finally {
        this.running = null;
        this.deps.onChange?.();
      }
    })();
    return this.running;
  }

  /** Runs until nothing is due (or offline / not signed in), then resolves. */
  flush(options: FlushOptions = {}): Promise<void> {
    return this.kick(options);
  }

  private schedule(at: number | null): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (at === null || this.stopped) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        void this.kick();
      },
      Math.max(0, at - this.now()),
    );
    this.timer.unref?.();
  }

  private backoffDelay(): number {
    const base = this.deps.backoffBaseMs ?? 1_000;
    const max = this.deps.backoffMaxMs ?? 5 * 60_000;
    const raw = Math.min(max, base * 2 ** Math.min(this.failures - 1, 20));
    return Math.round(raw * (0.5 + (this.deps.random?.() ?? Math.random()) * 0.5));
  }

  private async session(options: FlushOptions): Promise<S | 'timeout'> {
    const controllers = [this.abort.signal];
    let timeout: AbortController | undefined;
    let handle: NodeJS.Timeout | undefined;
    if (options.signInTimeoutMs !== undefined) {
      timeout = new AbortController();
      handle = setTimeout(() => timeout!.abort(), options.signInTimeoutMs);
      controllers.push(timeout.signal);
    }
    const signal = AbortSignal.any(controllers);
    // Show "paused" when the gate does not answer at once (signed out or refused).
    const pausedHint = setTimeout(() => this.setStatus({ state: 'paused' }), 1_500);
    try {
      return await this.deps.ready(signal);
    } catch (error) {
      if (timeout?.signal.aborted && !this.abort.signal.aborted) return 'timeout';
      throw error;
    } finally {
      clearTimeout(pausedHint);
      if (handle) clearTimeout(handle);
    }
  }

  /** Waits for a session for `profileId`; null = stop this drain (offline, not signed in, stopping). */
  private async sessionFor(profileId: string, options: FlushOptions): Promise<S | null> {
    let session: S | 'timeout';
    try {
      session = await this.session(options);
    } catch (error) {
      if (this.stopped) return null;
      // Endpoint unavailable (e.g. the built-in sandbox is stopped): offline.
      this.failures++;
      const p = message(error, this.secrets);
      const at = this.now() + this.backoffDelay();
      this.setStatus({ state: 'offline', lastError: p, nextAttemptAt: new Date(at).toISOString() });
      this.deps.checkConnectivity?.();
      this.schedule(at);
      return null;
    }
    if (session === 'timeout') {
      this.setStatus({ state: 'paused' });
      return null;
    }
    if (session.token && !this.secrets.includes(session.token)) this.secrets.push(session.token);
    return session.profile.id === profileId ? session : null;
  }

  /**
   * The send loop, one request in flight at a time. Per batch ONE transaction records the verdicts
   * of the answer just received and claims and arms the next batch (Outbox.claim); the request
   * leaves right after it commits.
   */
  private async drain(options: FlushOptions): Promise<void> {
    const { outbox } = this.deps;
    outbox.recover();
    let session: S | null = null;
    /** The last answer's verdicts, written in the same transaction as the next claim. */
    let settled: Settlement | null = null;
    const writeSettled = () => {
      if (settled) outbox.settle(settled);
      settled = null;
    };
    try {
      for (;;) {
        if (this.stopped) return;
        const profileId = this.deps.activeProfileId();
        const fresh = !session || session.profile.id !== profileId;
        if (fresh) {
          writeSettled();
          if (this.nothingDue(profileId)) return;
        }
        if (this.deps.isOnline && !this.deps.isOnline()) {
          // Wait for `app.online` (the service kicks us) — and try again later anyway.
          writeSettled();
          this.setStatus({ state: 'offline' });
          this.schedule(this.now() + Math.max(5_000, this.backoffDelay()));
          return;
        }
        if (fresh) {
          session = await this.sessionFor(profileId, options);
          if (!session) {
            if (this.stopped || this.status.state === 'offline' || this.status.state === 'paused') return;
            continue; // the active profile changed meanwhile
          }
        }
        const claim = outbox.claim(profileId, this.effectiveBatch(), settled);
        settled = null;
        if (!claim) {
          if (this.nothingDue(profileId)) return;
          continue;
        }
        if (this.status.state !== 'flushing') this.setStatus({ state: 'flushing' });
        const result = await this.sendClaim(claim, session!);
        if (result.ok) {
          settled = { token: claim.token, verdicts: cleanedVerdicts(judgeOutcome(claim.entries, result.outcome), this.secrets) };
          this.failures = 0;
          if (this.status.lastError !== null) this.status = { ...this.status, lastError: null };
          this.deps.onChange?.();
          continue;
        }
        const after = await this.onFailure(claim, session!, result.error);
        this.deps.onChange?.();
        if (after.resetSession) session = null;
        if (after.stop) return;
        // A failure that comes back at once must not starve timers and signals of their turn.
        await nextTurn();
      }
    } finally {
      writeSettled();
    }
  }

  /** When nothing is due now: schedules the next due entry, shows idle or back-off, and says true. */
  private nothingDue(profileId: string): boolean {
    const { due, nextAt } = this.deps.outbox.due(profileId);
    if (due) return false;
    this.schedule(nextAt);
    const waiting = nextAt !== null;
    if (this.status.state !== 'offline' || !waiting) {
      this.setStatus({ state: waiting ? 'backoff' : 'idle', nextAttemptAt: waiting ? new Date(nextAt).toISOString() : null });
    }
    return true;
  }

  private async sendClaim(claim: Claim, session: S): Promise<{ ok: true; outcome: SendEmailOutcome } | { ok: false; error: unknown }> {
    this.inFlight = claim.entries.length;
    try {
      return { ok: true, outcome: await this.deps.send(session, requestFor(claim), this.abort.signal) };
    } catch (error) {
      return { ok: false, error };
    } finally {
      this.inFlight = 0;
    }
  }

  /** Records a failed request; says whether to go on and whether to ask for a new session. */
  private async onFailure(claim: Claim, session: S, error: unknown): Promise<{ stop: boolean; resetSession?: boolean }> {
    const { outbox } = this.deps;
    const p = message(error, this.secrets);
    if (!isApiError(error)) {
      // Unexpected: the request may have left. Never guess "not sent".
      outbox.markUnknown(claim.token, p);
      this.deps.log?.('error', `email sender: unexpected failure, ${claim.entries.length} entries left unknown: ${p.en}`);
      return { stop: false };
    }
    switch (error.kind) {
      case 'unknown_outcome':
      case 'malformed':
      case 'network':
      case 'timeout':
        outbox.markUnknown(claim.token, p);
        this.setStatus({ lastError: p });
        return { stop: false };
      case 'cancelled':
        // Refused before it left (the client checks the signal first).
        outbox.release(claim.token, 0, null);
        return { stop: true };
      case 'auth':
        outbox.release(claim.token, 0, p);
        this.setStatus({ state: 'paused', lastError: p });
        await this.deps.reportAuthFailure(session);
        return { stop: false, resetSession: true };
      case 'offline': {
        this.failures++;
        const at = this.now() + this.backoffDelay();
        outbox.release(claim.token, at, p);
        this.setStatus({ state: 'offline', lastError: p, nextAttemptAt: new Date(at).toISOString() });
        this.deps.checkConnectivity?.();
        this.schedule(at);
        return { stop: true, resetSession: true };
      }
      case 'rate_limited':
      case 'unavailable': {
        this.failures++;
        const at = this.now() + Math.max(error.retryAfterMs ?? 0, this.backoffDelay());
        outbox.release(claim.token, at, p);
        this.setStatus({ state: 'backoff', lastError: p, nextAttemptAt: new Date(at).toISOString() });
        this.schedule(at);
        return { stop: true };
      }
      case 'rejected': {
        const code = error.serviceCode;
        if (code && /^InvoiceQuantityTooLarge$/i.test(code) && claim.entries.length > 1) {
          this.batchCap = Math.max(1, Math.floor(claim.entries.length / 2));
          outbox.release(claim.token, 0, null);
          this.deps.log?.('warn', `email sender: the service refused ${claim.entries.length} invoices per request; using ${this.batchCap}`);
          return { stop: false };
        }
        outbox.settle({ token: claim.token, verdicts: cleanedVerdicts(new Map(claim.entries.map((e) => [e.id, refused(code, p)])), this.secrets) });
        return { stop: false };
      }
      case 'config':
      default: {
        this.failures++;
        const at = this.now() + this.backoffDelay();
        outbox.release(claim.token, at, p);
        this.setStatus({ state: 'paused', lastError: p });
        this.schedule(at);
        return { stop: true, resetSession: true };
      }
    }
  }

  /**
   * Lets a request in flight finish (up to the grace time, `graceMs` overriding the tuning; 0 when
   * the user interrupts), then aborts; its armed entries become `unknown`, never queued again.
   */
  async stop(graceMs: number = this.deps.stopGraceMs ?? 10_000): Promise<void> {
    this.stopped = true;
    this.schedule(null);
    const running = this.running;
    if (running && graceMs > 0) {
      const grace = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref?.());
      await Promise.race([running, grace]);
    }
    this.abort.abort();
    if (running) await running.catch(() => {});
  }
}
