import { AppError } from '../../../common/errors';
import type { UpdateState } from '../../../common/calls/updates';
import { isOfflineError } from './mode';
import type { Timers } from './timers';
import type { WorkInProgress } from './work-in-progress';

/** The Electron side as the state machine sees it (main/electron/updater adapts electron-updater to it). */
export interface UpdateDriver {
  /** Asks the feed; a newer version, or null when this one is the latest. */
  check(): Promise<{ version: string } | null>;
  /** Downloads the update found by the last check; resolves once it is ready to install. Progress comes through `UpdateController.progress`. */
  download(): Promise<void>;
  /** Quits the app and runs the installer (the app starts again afterwards). */
  install(): void;
}

export interface UpdatePolicy {
  /** First check after start: shortly, once the app has settled. */
  initialDelayMs: number;
  /** Between successful checks. */
  intervalMs: number;
  /** Backoff after a failure that looks like "offline": first delay, doubling, capped at `offlineMaxMs`. */
  offlineMinMs: number;
  offlineMaxMs: number;
  /** Backoff after any other failure (a broken release, a 404): first delay, doubling, capped at `intervalMs`. */
  errorMinMs: number;
  /** While an install waits for work to finish, how often it re-asks (it also re-asks on every change). */
  workPollMs: number;
}

export const DEFAULT_POLICY: UpdatePolicy = {
  initialDelayMs: 30_000,
  intervalMs: 4 * 60 * 60_000,
  offlineMinMs: 60_000,
  offlineMaxMs: 30 * 60_000,
  errorMinMs: 15 * 60_000,
  workPollMs: 5_000,
};

export interface UpdateControllerDeps {
  driver: UpdateDriver;
  work: WorkInProgress;
  timers: Timers;
  now: () => Date;
  publish: (state: UpdateState) => void;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
  policy?: Partial<UpdatePolicy>;
}

export const notReadyError = () =>
  new AppError('update_not_ready', {
    en: 'There is no downloaded update to install yet.',
    vi: 'Chưa có bản cập nhật nào được tải xong để cài đặt.',
  });

/**
 * The update decision logic, free of Electron:
 *
 *   idle ──(timer | check)──▶ checking ──none──▶ idle (next check in `intervalMs`)
 *                               │ └──failure──▶ retrying (backoff; offline is retried sooner) ──▶ checking
 *                               ▼ newer version
 *                          downloading(progress) ──failure──▶ retrying
 *                               ▼
 *                             ready ──restart──▶ ask WorkInProgress ──clear──▶ installing ──▶ driver.install()
 *                               ▲                        │ busy
 *                               └──cancel── waiting ◀────┘ (re-asks on every change and every `workPollMs`)
 *
 * Failures never surface as errors: they are logged and retried. Nothing installs while work is in progress.
 */
export class UpdateController {
  private current: UpdateState = { status: 'idle', checkedAt: null, nextCheckAt: null };
  private readonly policy: UpdatePolicy;
  private checkTimer: unknown;
  private workTimer: unknown;
  private unsubscribeWork: (() => void) | undefined;
  private failures = 0;
  private running = false;
  /** Bumped by stop(): answers from a driver call started before it are ignored. */
  private generation = 0;
  private asking: Promise<UpdateState> | undefined;
  private checking: Promise<UpdateState> | undefined;
  private pendingVersion: string | undefined;

  constructor(private readonly deps: UpdateControllerDeps) {
    this.policy = { ...DEFAULT_POLICY, ...deps.policy };
  }

  get state(): UpdateState {
    return this.current;
  }

  /** Starts the schedule: the first check `initialDelayMs` from now. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.set({ status: 'idle', checkedAt: null, nextCheckAt: this.at(this.policy.initialDelayMs) });
    this.scheduleCheck(this.policy.initialDelayMs);
  }

  /** Stops every timer; a driver call in flight finishes but its answer is dropped. */
  stop(): void {
    this.running = false;
    this.generation++;
    this.clearCheckTimer();
    this.stopWaiting();
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Checks now (the schedule's timer or `updates.check`). Does nothing while busy with an update. */
  checkNow(): Promise<UpdateState> {
    if (this.checking) return this.checking;
    if (!this.running) return Promise.resolve(this.current);
    const status = this.current.status;
    if (status !== 'idle' && status !== 'retrying') return Promise.resolve(this.current);
    // A second caller during a check (timer and button together) shares it.
    this.checking = this.runCheck().finally(() => (this.checking = undefined));
    return this.checking;
  }

  private async runCheck(): Promise<UpdateState> {
    this.clearCheckTimer();
    const generation = this.generation;
    this.set({ status: 'checking' });
    try {
      const found = await this.deps.driver.check();
      if (generation !== this.generation) return this.current;
      if (!found) {
        this.failures = 0;
        this.set({ status: 'idle', checkedAt: this.deps.now().toISOString(), nextCheckAt: this.at(this.policy.intervalMs) });
        this.scheduleCheck(this.policy.intervalMs);
        return this.current;
      }
      this.pendingVersion = found.version;
      this.log('info', `update ${found.version} found; downloading in the background`);
      this.set({ status: 'downloading', version: found.version, percent: 0, transferred: 0, total: 0 });
      await this.deps.driver.download();
      if (generation !== this.generation) return this.current;
      this.failures = 0;
      this.set({ status: 'ready', version: found.version });
      this.log('info', `update ${found.version} downloaded; waiting for "restart to update" or the next quit`);
    } catch (error) {
      if (generation !== this.generation) return this.current;
      this.retryLater(error);
    }
    return this.current;
  }

  /** Download progress from the driver; ignored unless downloading. Never goes backwards. */
  progress(update: { percent: number; transferred: number; total: number }): void {
    if (this.current.status !== 'downloading') return;
    const percent = Math.min(100, Math.max(this.current.percent, Number.isFinite(update.percent) ? update.percent : 0));
    this.set({
      ...this.current,
      percent: Math.round(percent * 10) / 10,
      transferred: Math.max(0, Math.floor(update.transferred)),
      total: Math.max(0, Math.floor(update.total)),
    });
  }

  /**
   * "Restart to update": installs once no work is in progress, otherwise waits (state `waiting`
   * with the reasons) and re-asks until it is clear.
   */
  async requestInstall(): Promise<UpdateState> {
    const status = this.current.status;
    if (status === 'installing') return this.current;
    if (status !== 'ready' && status !== 'waiting') throw notReadyError();
    if (status === 'ready') {
      this.unsubscribeWork = this.deps.work.onChange(() => void this.askWork());
    }
    return this.askWork();
  }

  /** Withdraws a waiting restart; the update stays ready (and still installs when the app quits). */
  cancelInstall(): UpdateState {
    if (this.current.status === 'waiting') {
      this.stopWaiting();
      this.set({ status: 'ready', version: this.current.version });
    }
    return this.current;
  }

  private askWork(): Promise<UpdateState> {
    // One question at a time; a change during it is answered by the poll or the next change.
    this.asking ??= this.doAskWork().finally(() => (this.asking = undefined));
    return this.asking;
  }

  private async doAskWork(): Promise<UpdateState> {
    const before = this.current;
    if (before.status !== 'ready' && before.status !== 'waiting') return before;
    const version = before.version;
    if (this.workTimer !== undefined) this.deps.timers.clearTimeout(this.workTimer);
    this.workTimer = undefined;
    const { busy, reasons } = await this.deps.work.check();
    // Cancelled (or stopped) while the probes were answering.
    if (!this.running) return this.current;
    if (this.current.status !== 'ready' && this.current.status !== 'waiting') return this.current;
    if (this.current.status === 'ready' && before.status === 'waiting') return this.current;
    if (busy) {
      this.set({ status: 'waiting', version, reasons });
      this.workTimer = this.deps.timers.setTimeout(() => {
        this.workTimer = undefined;
        void this.askWork();
      }, this.policy.workPollMs);
      return this.current;
    }
    this.stopWaiting();
    this.set({ status: 'installing', version });
    this.log('info', `installing update ${version}`);
    try {
      this.deps.driver.install();
    } catch (error) {
      this.log('error', `could not start the installer: ${describe(error)}`);
      this.set({ status: 'ready', version });
    }
    return this.current;
  }

  private stopWaiting(): void {
    if (this.workTimer !== undefined) this.deps.timers.clearTimeout(this.workTimer);
    this.workTimer = undefined;
    this.unsubscribeWork?.();
    this.unsubscribeWork = undefined;
  }

  private retryLater(error: unknown): void {
    this.failures++;
    const offline = isOfflineError(error);
    const { offlineMinMs, offlineMaxMs, errorMinMs, intervalMs } = this.policy;
    const exponent = Math.min(this.failures - 1, 16);
    const delay = offline ? Math.min(offlineMaxMs, offlineMinMs * 2 ** exponent) : Math.min(intervalMs, errorMinMs * 2 ** exponent);
    // Quietly: a log line, never a dialog; the renderer shows nothing for `retrying`.
    this.log(
      offline ? 'info' : 'warn',
      `update ${this.pendingVersion ? `of ${this.pendingVersion} ` : ''}failed (${offline ? 'offline' : 'error'}, attempt ${this.failures}): ${describe(error)}; retrying in ${Math.round(delay / 1000)} s`,
    );
    this.pendingVersion = undefined;
    this.set({ status: 'retrying', attempt: this.failures, offline, nextCheckAt: this.at(delay) });
    this.scheduleCheck(delay);
  }

  private scheduleCheck(ms: number): void {
    this.clearCheckTimer();
    if (!this.running) return;
    this.checkTimer = this.deps.timers.setTimeout(() => {
      this.checkTimer = undefined;
      void this.checkNow();
    }, ms);
  }

  private clearCheckTimer(): void {
    if (this.checkTimer !== undefined) this.deps.timers.clearTimeout(this.checkTimer);
    this.checkTimer = undefined;
  }

  private at(ms: number): string {
    return new Date(this.deps.now().getTime() + ms).toISOString();
  }

  private set(state: UpdateState): void {
    this.current = state;
    this.deps.publish(state);
  }

  private log(level: 'info' | 'warn' | 'error', message: string): void {
    this.deps.log?.(level, `updater: ${message}`);
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message.split('\n')[0] ?? error.name;
  return String(error);
}
