import type { JobCounts } from './repository';

export interface EngineProgress {
  counts: JobCounts;
  /** Bytes per second over the recent window. */
  rate: number;
  itemsPerSecond: number;
  etaSeconds: number | null;
}

/** A running job's counts with its rate over the last 5 s, reported at most every `intervalMs` (the last one always). */
export class ProgressMeter {
  private readonly samples: Array<{ t: number; bytes: number; done: number }> = [];
  private lastEmit = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly counts: JobCounts,
    private readonly onProgress: ((progress: EngineProgress) => void) | undefined,
    private readonly intervalMs: number,
  ) {
    this.sample();
  }

  sample(): void {
    const t = performance.now();
    this.samples.push({ t, bytes: this.counts.bytes, done: this.counts.saved + this.counts.skipped + this.counts.failed });
    while (this.samples.length > 2 && t - this.samples[0]!.t > 5_000) this.samples.shift();
  }

  /** The current counts, rate and time left. */
  progress(): EngineProgress {
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    let rate = 0;
    let itemsPerSecond = 0;
    if (first && last && last.t - first.t > 50) {
      const secs = (last.t - first.t) / 1000;
      rate = Math.max(0, (last.bytes - first.bytes) / secs);
      itemsPerSecond = Math.max(0, (last.done - first.done) / secs);
    }
    const left = this.counts.pending + this.counts.placing;
    const etaSeconds = left === 0 ? 0 : itemsPerSecond > 0 ? left / itemsPerSecond : null;
    return { counts: { ...this.counts }, rate, itemsPerSecond, etaSeconds };
  }

  emit(force: boolean): void {
    const cb = this.onProgress;
    if (!cb) return;
    const now = performance.now();
    if (force || now - this.lastEmit >= this.intervalMs) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = undefined;
      this.lastEmit = now;
      cb(this.progress());
      return;
    }
    // Throttled: make sure the latest counts still go out shortly.
    this.timer ??= setTimeout(
      () => {
        this.timer = undefined;
        this.lastEmit = performance.now();
        cb(this.progress());
      },
      this.intervalMs - (now - this.lastEmit),
    );
  }
}
