import type { SignedInSession } from '../auth';
import { Passes } from './passes';

/** How background work that talks to the service paces itself; the email sender and the issue runner share these. */
export interface PacingTuning {
  /** False while the connectivity check says the service is unreachable (then the work waits for `app.online`). */
  isOnline?: () => boolean;
  /** Asks the connectivity check to look again (after a connection failure). */
  checkConnectivity?: () => void;
  now?: () => number;
  random?: () => number;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
  /** Backoff after transient errors: first delay and cap (ms). */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** How long `stop()` lets a request in flight finish before aborting it. */
  stopGraceMs?: number;
}

/** What background work needs from a sign-in: the profile it belongs to. */
export interface WorkerSession {
  profile: { id: string };
  /** Redacted from every text of the service that is stored or shown. */
  token?: string;
}

export interface PassOptions {
  /** Give up waiting for a sign-in after this long (the CLI); default: wait (the app). */
  signInTimeoutMs?: number;
}

/** The sign-in gate as the services receive it (AuthGate). */
export interface WorkGate {
  ready(signal?: AbortSignal): Promise<SignedInSession>;
  reportAuthFailure(profileId?: string): Promise<void>;
}

/** Whose work it is and how it waits for a sign-in: what the sender and the runner ask of their host. */
export interface WorkerPorts<S extends WorkerSession> {
  /** The active profile: the work is done for it. */
  activeProfileId: () => string;
  /** Resolves with a session; blocks while signed out / paused (AuthGate.ready). */
  ready: (signal: AbortSignal) => Promise<S>;
  /** The service refused the sign-in: pause until a new one (AuthGate.reportAuthFailure). */
  reportAuthFailure: (session: S) => Promise<void> | void;
  /** The queue or the worker's state changed; `statusOnly`: the worker's state alone, no entry of the queue. */
  onChange?: (statusOnly?: boolean) => void;
}

/** The ports of a service's worker, from the service's own dependencies. */
export function workerPorts(deps: { activeProfileId: () => string; gate: WorkGate }): WorkerPorts<SignedInSession> {
  const { gate } = deps;
  return {
    activeProfileId: deps.activeProfileId,
    ready: (signal) => gate.ready(signal),
    reportAuthFailure: (session) => gate.reportAuthFailure(session.profile.id),
  };
}

/**
 * The timing of background work: one pass at a time (`kick`), a timer for the next attempt, a
 * growing, jittered backoff after failures, and `stop()` that lets a request in flight finish
 * within a grace time before aborting it.
 */
export class Retimer<O extends PassOptions> {
  private halted = false;
  /** Aborts the requests in flight when `stop()`'s grace is over. */
  readonly abort = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  /** Transient failures in a row (the backoff grows with them). */
  failures = 0;
  private readonly passes: Passes<O>;

  constructor(
    private readonly tuning: PacingTuning,
    pass: (options: O) => Promise<void>,
    hooks: { merge?: (running: O, asked: O) => O; onError: (error: unknown) => void; onEnd: () => void },
  ) {
    this.passes = new Passes(pass, { ...hooks, stopped: () => this.halted });
  }

  get stopped(): boolean {
    return this.halted;
  }

  get busy(): boolean {
    return this.passes.busy;
  }

  now(): number {
    return this.tuning.now?.() ?? Date.now();
  }

  /** Starts a pass (or makes the running one look again). */
  kick(options: O = {} as O): Promise<void> {
    return this.passes.run(options);
  }

  /** Kicks at `at` (replacing the timer set before); null: no timer. */
  schedule(at: number | null): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (at === null || this.halted) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        void this.kick();
      },
      Math.max(0, at - this.now()),
    );
    this.timer.unref?.();
  }

  /** The wait after the current run of failures: doubling from the base up to the cap, half of it jitter. */
  backoff(): number {
    const base = this.tuning.backoffBaseMs ?? 1_000;
    const raw = Math.min(this.tuning.backoffMaxMs ?? 5 * 60_000, base * 2 ** Math.min(this.failures - 1, 20));
    return Math.round(raw * (0.5 + (this.tuning.random?.() ?? Math.random()) * 0.5));
  }

  /** Counts one more failure; when to try again (not before `atLeastMs`). */
  retryAt(atLeastMs = 0): number {
    this.failures++;
    return this.now() + Math.max(atLeastMs, this.backoff());
  }

  /**
   * Waits in `ready` for a session; 'timeout' when `signInTimeoutMs` passed first. `onSlow` runs
   * when the gate does not answer at once (signed out or refused: show "paused").
   */
  async session<S>(ready: (signal: AbortSignal) => Promise<S>, options: PassOptions, onSlow: () => void): Promise<S | 'timeout'> {
    const signals = [this.abort.signal];
    // A timer of its own (not AbortSignal.timeout): it keeps a CLI process alive while it waits.
    const timeout = options.signInTimeoutMs === undefined ? null : new AbortController();
    const handle = timeout ? setTimeout(() => timeout.abort(), options.signInTimeoutMs) : undefined;
    if (timeout) signals.push(timeout.signal);
    const hint = setTimeout(onSlow, 1_500);
    try {
      return await ready(AbortSignal.any(signals));
    } catch (error) {
      if (timeout?.signal.aborted && !this.abort.signal.aborted) return 'timeout';
      throw error;
    } finally {
      clearTimeout(hint);
      clearTimeout(handle);
    }
  }

  /**
   * Lets the pass in progress finish (up to the grace time; 0 when the user interrupts), then
   * aborts what is still in flight; no pass starts after.
   */
  async stop(graceMs: number = this.tuning.stopGraceMs ?? 10_000): Promise<void> {
    this.halted = true;
    this.schedule(null);
    const running = this.passes.current;
    if (running && graceMs > 0) await Promise.race([running, new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref?.())]);
    this.abort.abort();
    if (running) await running.catch(() => {});
  }
}
