import type { EventBus } from '../../../common/ipc/bus';

export interface ConnectivityOptions {
  /** True when the active profile's service answers; never `navigator.onLine`. */
  probe: (signal: AbortSignal) => Promise<boolean>;
  bus: EventBus;
  now?: () => Date;
  /** Delay between checks while online, and the backoff bounds while offline (ms). */
  onlineIntervalMs?: number;
  offlineMinMs?: number;
  offlineMaxMs?: number;
  probeTimeoutMs?: number;
}

/** Decides online/offline by reaching the service, re-checks with backoff, publishes `app.online`. */
export class Connectivity {
  private timer: NodeJS.Timeout | undefined;
  private failures = 0;
  private stopped = false;
  private current: boolean | undefined;
  private running: Promise<boolean> | undefined;

  constructor(private readonly options: ConnectivityOptions) {}

  get online(): boolean {
    return this.current === true;
  }

  start(): void {
    this.stopped = false;
    void this.check();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Checks now (e.g. after a request failed or the profile changed); concurrent calls share one probe. */
  check(): Promise<boolean> {
    this.running ??= this.runProbe().finally(() => (this.running = undefined));
    return this.running;
  }

  private async runProbe(): Promise<boolean> {
    const { probe, probeTimeoutMs = 5000 } = this.options;
    let online: boolean;
    try {
      online = await probe(AbortSignal.timeout(probeTimeoutMs));
    } catch {
      online = false;
    }
    this.failures = online ? 0 : this.failures + 1;
    if (online !== this.current) {
      this.current = online;
      this.options.bus.emit('app.online', { online, checkedAt: (this.options.now?.() ?? new Date()).toISOString() });
    }
    this.schedule();
    return online;
  }

  private schedule(): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    const { onlineIntervalMs = 30_000, offlineMinMs = 1_000, offlineMaxMs = 30_000 } = this.options;
    const delay = this.current ? onlineIntervalMs : Math.min(offlineMaxMs, offlineMinMs * 2 ** Math.min(this.failures - 1, 10));
    this.timer = setTimeout(() => void this.check(), delay);
    this.timer.unref?.();
  }
}
