import type { WorkReason } from '../../../common/calls/updates';
import type { Bilingual } from '../../../common/model';
import { realTimers, type Timers } from './timers';

/** What a probe answers: is this service in the middle of something an app restart would break? */
export interface WorkProbeResult {
  busy: boolean;
  /** Shown to staff while an update waits, e.g. "3 emails are being sent". */
  message?: Bilingual;
}
export type WorkProbe = () => WorkProbeResult | Promise<WorkProbeResult>;

export interface WorkCheck {
  busy: boolean;
  reasons: WorkReason[];
}

const FALLBACK: Bilingual = { en: 'Work is in progress', vi: 'Đang có công việc chưa xong' };

/**
 * The "is anyone busy?" registry the updater asks before it restarts the app. Services register a
 * probe (an unsaved draft, a flushing email queue, a running download); the renderer declares work
 * only it knows about through `updates.declareWork`. A probe that throws or does not answer within
 * `probeTimeoutMs` counts as busy: when unsure, the update waits.
 */
export class WorkInProgress {
  private readonly probes = new Map<string, WorkProbe>();
  private readonly declared = new Map<string, Bilingual>();
  private readonly listeners = new Set<() => void>();
  private readonly timers: Timers;
  private readonly probeTimeoutMs: number;

  constructor(options: { timers?: Timers; probeTimeoutMs?: number } = {}) {
    this.timers = options.timers ?? realTimers;
    this.probeTimeoutMs = options.probeTimeoutMs ?? 2_000;
  }

  /**
   * Registers a probe under a source name (`drafts`, `emails.queue`, `downloads`…); registering the
   * same source again replaces it. Returns the function that unregisters it.
   */
  register(source: string, probe: WorkProbe): () => void {
    this.probes.set(source, probe);
    this.changed();
    return () => {
      if (this.probes.get(source) === probe) {
        this.probes.delete(source);
        this.changed();
      }
    };
  }

  /** Marks work under `key` as in progress until `clear(key)` (for work that is easier to push than to poll). */
  declare(key: string, message: Bilingual = FALLBACK): void {
    this.declared.set(key, message);
    this.changed();
  }

  clear(key: string): void {
    if (this.declared.delete(key)) this.changed();
  }

  /** Services call this when their work finished so a waiting update re-asks at once instead of at the next poll. */
  changed(): void {
    for (const listener of [...this.listeners]) listener();
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Asks every probe (in parallel) and lists every declared piece of work. */
  async check(): Promise<WorkCheck> {
    const reasons: WorkReason[] = [];
    for (const [source, message] of this.declared) reasons.push({ source, message });
    const answers = await Promise.all([...this.probes].map(async ([source, probe]) => ({ source, answer: await this.ask(probe) })));
    for (const { source, answer } of answers) {
      if (!answer.busy) continue;
      reasons.push({ source, message: answer.message ?? FALLBACK });
    }
    return { busy: reasons.length > 0, reasons };
  }

  private async ask(probe: WorkProbe): Promise<WorkProbeResult> {
    let handle: unknown;
    const timeout = new Promise<WorkProbeResult>((resolve) => {
      handle = this.timers.setTimeout(
        () => resolve({ busy: true, message: { en: 'A service did not answer in time', vi: 'Một dịch vụ không trả lời kịp' } }),
        this.probeTimeoutMs,
      );
    });
    try {
      const answer = await Promise.race([Promise.resolve().then(probe), timeout]);
      return typeof answer?.busy === 'boolean' ? answer : { busy: true };
    } catch {
      return { busy: true, message: { en: 'A service could not say whether it is busy', vi: 'Một dịch vụ không cho biết có đang bận hay không' } };
    } finally {
      this.timers.clearTimeout(handle);
    }
  }
}
