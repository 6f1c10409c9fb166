import type { UpdateState } from '../../../common/calls/updates';
import type { UpdateDriver } from '../../../main/services/updates/controller';
import type { Timers } from '../../../main/services/updates/timers';

/** A clock whose timers fire only when the test moves time; `advance` lets promises settle between timers. */
export class FakeClock implements Timers {
  time = Date.parse('2026-03-01T08:00:00.000Z');
  private nextId = 1;
  private tasks = new Map<number, { at: number; callback: () => void }>();

  now = () => new Date(this.time);

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.tasks.set(id, { at: this.time + Math.max(0, ms), callback });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.tasks.delete(handle as number);
  }

  get pending(): number {
    return this.tasks.size;
  }

  /** Milliseconds until the next timer, or undefined when none is pending. */
  nextDelay(): number | undefined {
    const next = Math.min(...[...this.tasks.values()].map((t) => t.at));
    return Number.isFinite(next) ? next - this.time : undefined;
  }

  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    await settle();
    for (;;) {
      const due = [...this.tasks.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.tasks.delete(due[0]);
      this.time = due[1].at;
      due[1].callback();
      await settle();
    }
    this.time = end;
    await settle();
  }
}

/** Lets every queued promise callback run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

type CheckAnswer = { version: string } | null | Error;

/** A driver the test scripts: what each check answers, whether downloads fail, and what was called. */
export class FakeDriver implements UpdateDriver {
  checks = 0;
  downloads = 0;
  installs = 0;
  answers: CheckAnswer[] = [];
  /** Used when `answers` is empty. */
  defaultAnswer: CheckAnswer = null;
  downloadError: Error | undefined;
  private releaseDownload: (() => void) | undefined;
  holdDownloads = false;

  async check(): Promise<{ version: string } | null> {
    this.checks++;
    const answer = this.answers.length ? this.answers.shift()! : this.defaultAnswer;
    if (answer instanceof Error) throw answer;
    return answer;
  }

  download(): Promise<void> {
    this.downloads++;
    if (this.downloadError) {
      const error = this.downloadError;
      return Promise.reject(error);
    }
    if (!this.holdDownloads) return Promise.resolve();
    return new Promise((resolve) => (this.releaseDownload = resolve));
  }

  finishDownload(): void {
    this.releaseDownload?.();
    this.releaseDownload = undefined;
  }

  install(): void {
    this.installs++;
  }
}

export function offlineError(): Error {
  return Object.assign(new Error('getaddrinfo ENOTFOUND api.github.com'), { code: 'ENOTFOUND' });
}

export function recorder() {
  const states: UpdateState[] = [];
  return { states, publish: (s: UpdateState) => states.push(s), statuses: () => states.map((s) => s.status) };
}
