import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Format from '../../../common/format';

/** The formats made on this thread, as `lang:n` (the n-th of the language's warm-ups). */
const made = vi.hoisted(() => [] as string[]);
vi.mock('../../../common/format', async (original) => {
  const real = await original<typeof Format>();
  return {
    ...real,
    formatWarmUps: (lang: 'vi' | 'en') =>
      real.formatWarmUps(lang).map((warm, n) => () => {
        made.push(`${lang}:${n}`);
        warm();
      }),
  };
});
const { formatWarmUps } = await import('../../../common/format');
const { warmFormatsSoon } = await import('../../../renderer/src/app/warm-formats');

const ALL = ['vi', 'en'].flatMap((lang) => formatWarmUps(lang as 'vi' | 'en').map((_, n) => `${lang}:${n}`));

beforeEach(() => {
  made.length = 0;
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

class FakeWorker {
  static started: FakeWorker[] = [];
  onmessage?: () => void;
  onerror?: (e: { message: string }) => void;
  readonly sent: unknown[] = [];
  ended = false;
  constructor(readonly url: URL) {
    FakeWorker.started.push(this);
  }
  postMessage(m: unknown) {
    this.sent.push(m);
  }
  terminate() {
    this.ended = true;
  }
}

describe('the first formats made before a screen needs them', () => {
  it('go to a worker thread when one starts: both languages, and the worker is ended when it says it is done', () => {
    FakeWorker.started = [];
    vi.stubGlobal('Worker', FakeWorker);
    warmFormatsSoon();
    expect(FakeWorker.started).toHaveLength(1);
    const worker = FakeWorker.started[0]!;
    expect(String(worker.url)).toMatch(/warm-formats\.worker\.ts$/);
    expect(worker.sent).toEqual([['vi', 'en']]);
    expect(worker.ended).toBe(false);
    worker.onmessage!();
    expect(worker.ended).toBe(true);
    expect(made).toEqual([]);
    expect(console.warn).not.toHaveBeenCalled();
  });

  it('are made on the page thread where no worker can start, one per idle turn, and it says why', () => {
    const idle: Array<() => void> = [];
    vi.stubGlobal('requestIdleCallback', (fn: () => void) => idle.push(fn));
    vi.stubGlobal('Worker', undefined);
    warmFormatsSoon();
    expect(made).toEqual([]);
    expect(console.warn).toHaveBeenCalledOnce();
    idle.shift()!();
    expect(made).toEqual(['vi:0']);
    while (idle.length > 0) idle.shift()!();
    expect(made).toEqual(ALL);
  });

  it('are made on the page thread when the worker fails, and it says so', () => {
    vi.useFakeTimers();
    FakeWorker.started = [];
    vi.stubGlobal('Worker', FakeWorker);
    warmFormatsSoon();
    const worker = FakeWorker.started[0]!;
    worker.onerror!({ message: 'blocked' });
    expect(worker.ended).toBe(true);
    expect(console.warn).toHaveBeenCalledWith(expect.stringContaining('worker thread failed'), 'blocked');
    vi.runAllTimers();
    expect(made).toEqual(ALL);
  });
});
