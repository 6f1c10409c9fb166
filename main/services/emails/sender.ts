import type { EmailSenderStatus } from '../../../common/calls/emails';
import { emailFlags, type Bilingual, type SendEmailParameter } from '../../../common/model';
import { isApiError, type SendEmailOutcome } from '../api';
import { describeCode, isRetryableCode, judgeItem, type Verdict } from './judge';
import type { Claim, Outbox } from './outbox';

/** What the sender needs from a sign-in: the profile it belongs to. */
export interface SenderSession {
  profile: { id: string };
}

export interface SenderDeps<S extends SenderSession> {
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
  /** False while the connectivity check says the service is unreachable (then the sender waits for `app.online`). */
  isOnline?: () => boolean;
  /** Asks the connectivity check to look again (after a connection failure). */
  checkConnectivity?: () => void;
  /** The queue or the sender's state changed. */
  onChange?: () => void;
  now?: () => number;
  random?: () => number;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
  /** Backoff after transient errors: first delay and cap (ms). */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** How long `stop()` lets a request in flight finish before aborting it (its entries then become `unknown`). */
  stopGraceMs?: number;
}

export interface FlushOptions {
  /** Give up waiting for a sign-in after this long (the CLI); default: wait (the app). */
  signInTimeoutMs?: number;
}

function message(error: unknown): Bilingual {
  if (error && typeof error === 'object' && 'messageVi' in error && error instanceof Error) {
    return { en: error.message, vi: String((error as { messageVi: unknown }).messageVi) };
  }
  const text = error instanceof Error ? error.message : String(error);
  return { en: text, vi: text };
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
  private timerAt: number | null = null;
  private failures = 0;
  /** Shrinks when the service says a batch is too large. */
  private batchCap = Number.POSITIVE_INFINITY;
  private inFlight = 0;
  private status: EmailSenderStatus;

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
        if (!this.stopped) this.deps.log?.('error', `email sender: ${message(error).en}`);
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
    this.timerAt = at;
    if (at === null || this.stopped) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.timerAt = null;
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
      const p = message(error);
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
    return session.profile.id === profileId ? session : null;
  }

  /**
   * The send loop. One request is in flight at a time; while it is, the previous batch's verdicts
   * are written and the next batch is claimed (not armed), so the database work overlaps the
   * network wait instead of adding to it.
   */
  private async drain(options: FlushOptions): Promise<void> {
    const { outbox } = this.deps;
    outbox.recover();
    let session: S | null = null;
    let current: Claim | null = null;
    let next: Claim | null = null;
    let settleLater: (() => void) | null = null;
    const flushSettle = () => {
      const f = settleLater;
      settleLater = null;
      f?.();
    };
    try {
      for (;;) {
        if (this.stopped) return;
        if (!current) {
          flushSettle();
          const profileId = this.deps.activeProfileId();
          const { due, nextAt } = outbox.due(profileId);
          if (!due) {
            this.schedule(nextAt);
            const waiting = nextAt !== null;
            if (this.status.state !== 'offline' || !waiting) {
              this.setStatus({ state: waiting ? 'backoff' : 'idle', nextAttemptAt: waiting ? new Date(nextAt).toISOString() : null });
            }
            return;
          }
          if (this.deps.isOnline && !this.deps.isOnline()) {
            // Wait for `app.online` (the service kicks us) — and try again later anyway.
            this.setStatus({ state: 'offline' });
            this.schedule(this.now() + Math.max(5_000, this.backoffDelay()));
            return;
          }
          if (!session || session.profile.id !== profileId) {
            session = await this.sessionFor(profileId, options);
            if (!session) {
              if (this.stopped || this.status.state === 'offline' || this.status.state === 'paused') return;
              continue; // the active profile changed meanwhile
            }
          }
          current = outbox.claim(profileId, this.effectiveBatch());
          if (!current || current.entries.length === 0) {
            current = null;
            continue;
          }
        }
        if (this.status.state !== 'flushing') this.setStatus({ state: 'flushing' });
        const claim: Claim = current;
        const sending = this.sendClaim(claim, session!);
        // Let the request leave (undici writes it a couple of event-loop turns later), then do
        // the database work while it is in flight.
        for (let i = 0; i < 2; i++) await new Promise<void>((resolve) => setImmediate(resolve));
        flushSettle();
        if (!this.stopped && this.deps.activeProfileId() === claim.profileId) next = outbox.claim(claim.profileId, this.effectiveBatch());
        const result = await sending;
        if (result.ok) {
          settleLater = () => this.settleOutcome(claim, result.outcome);
          current = next;
          next = null;
          this.deps.onChange?.();
          continue;
        }
        // A failure: the prefetched batch never left; put it back first.
        const after = await this.onFailure(claim, session!, result.error);
        if (next) {
          outbox.release(next.token, after.retryAt ?? 0, null);
          next = null;
        }
        current = null;
        this.deps.onChange?.();
        if (after.resetSession) session = null;
        if (after.stop) return;
      }
    } finally {
      flushSettle();
      // Claims that never left (stopping, an exception): back to the queue.
      for (const c of [current, next]) if (c && !this.armed.has(c.token)) outbox.release(c.token, 0, null);
    }
  }

  private readonly armed = new Set<string>();

  private async sendClaim(claim: Claim, session: S): Promise<{ ok: true; outcome: SendEmailOutcome } | { ok: false; error: unknown }> {
    const parameter: SendEmailParameter = {
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
    this.deps.outbox.arm(claim.token);
    this.armed.add(claim.token);
    this.inFlight = claim.entries.length;
    try {
      return { ok: true, outcome: await this.deps.send(session, parameter, this.abort.signal) };
    } catch (error) {
      return { ok: false, error };
    } finally {
      this.inFlight = 0;
      this.armed.delete(claim.token);
    }
  }

  private settleOutcome(claim: Claim, outcome: SendEmailOutcome): void {
    const byTx = new Map<string, SendEmailOutcome['items'][number]>();
    for (const item of outcome.items) if (!byTx.has(item.transactionId)) byTx.set(item.transactionId, item);
    const verdicts = new Map<number, Verdict>();
    for (const e of claim.entries) {
      const item = byTx.get(e.transactionId);
      if (item) verdicts.set(e.id, judgeItem(item.status, item.errorCode));
      else if (outcome.callErrorCode) {
        verdicts.set(e.id, {
          state: 'failed',
          sendEmailStatus: null,
          errorCode: outcome.callErrorCode,
          retryable: isRetryableCode(outcome.callErrorCode),
          message: describeCode(outcome.callErrorCode),
        });
      } else {
        verdicts.set(e.id, {
          state: 'unknown',
          sendEmailStatus: null,
          errorCode: null,
          retryable: false,
          message: {
            en: "The service's answer did not mention this invoice; check it before sending again.",
            vi: 'Câu trả lời của dịch vụ không nhắc tới hóa đơn này; hãy kiểm tra trước khi gửi lại.',
          },
        });
      }
    }
    this.deps.outbox.settle(claim.token, verdicts);
    this.failures = 0;
    if (this.status.lastError !== null) this.status = { ...this.status, lastError: null };
  }

  /** Records a failed request; says whether to go on, when the prefetched batch may go, and whether to ask for a new session. */
  private async onFailure(claim: Claim, session: S, error: unknown): Promise<{ stop: boolean; retryAt?: number; resetSession?: boolean }> {
    const { outbox } = this.deps;
    const p = message(error);
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
        return { stop: true, retryAt: at, resetSession: true };
      }
      case 'rate_limited':
      case 'unavailable': {
        this.failures++;
        const at = this.now() + Math.max(error.retryAfterMs ?? 0, this.backoffDelay());
        outbox.release(claim.token, at, p);
        this.setStatus({ state: 'backoff', lastError: p, nextAttemptAt: new Date(at).toISOString() });
        return { stop: false, retryAt: at };
      }
      case 'rejected': {
        const code = error.serviceCode;
        if (code && /^InvoiceQuantityTooLarge$/i.test(code) && claim.entries.length > 1) {
          this.batchCap = Math.max(1, Math.floor(claim.entries.length / 2));
          outbox.release(claim.token, 0, null);
          this.deps.log?.('warn', `email sender: the service refused ${claim.entries.length} invoices per request; using ${this.batchCap}`);
          return { stop: false };
        }
        const verdicts = new Map<number, Verdict>();
        for (const e of claim.entries) {
          verdicts.set(e.id, { state: 'failed', sendEmailStatus: null, errorCode: code, retryable: code ? isRetryableCode(code) : true, message: p });
        }
        outbox.settle(claim.token, verdicts);
        return { stop: false };
      }
      case 'config':
      default: {
        this.failures++;
        const at = this.now() + this.backoffDelay();
        outbox.release(claim.token, at, p);
        this.setStatus({ state: 'paused', lastError: p });
        this.schedule(at);
        return { stop: true, retryAt: at, resetSession: true };
      }
    }
  }

  /** Lets a request in flight finish (up to the grace time), then aborts; its entries would become `unknown`. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.schedule(null);
    const running = this.running;
    if (running) {
      const grace = new Promise<void>((resolve) => setTimeout(resolve, this.deps.stopGraceMs ?? 10_000).unref?.());
      await Promise.race([running, grace]);
    }
    this.abort.abort();
    if (running) await running.catch(() => {});
  }

  /** For tests and status: when the next timed attempt is. */
  get nextTimerAt(): number | null {
    return this.timerAt;
  }
}
