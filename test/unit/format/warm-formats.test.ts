import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as Format from '../../../common/format';

const warmed: string[] = [];
vi.mock('../../../common/format', async (original) => {
  const real = await original<typeof Format>();
  return { ...real, warmFormats: (lang: 'vi' | 'en') => (warmed.push(lang), real.warmFormats(lang)) };
});
const { warmFormatsSoon } = await import('../../../renderer/src/app/warm-formats');

afterEach(() => {
  vi.unstubAllGlobals();
  warmed.length = 0;
});

describe('the first formats made before a screen needs them', () => {
  it('go to a worker thread when one starts: both languages, and the worker is ended when it says it is done', () => {
    class FakeWorker {
      onmessage?: () => void;
      onerror?: (e: { preventDefault(): void }) => void;
      readonly sent: unknown[] = [];
      ended = false;
      constructor(readonly url: URL) {
        workers.push(this);
      }
      postMessage(m: unknown) {
        this.sent.push(m);
      }
      terminate() {
        this.ended = true;
      }
    }
    const workers: FakeWorker[] = [];
    vi.stubGlobal('Worker', FakeWorker);
    warmFormatsSoon();
    expect(workers).toHaveLength(1);
    const worker = workers[0]!;
    expect(String(worker.url)).toMatch(/warm-formats\.worker\.ts$/);
    expect(worker.sent).toEqual([['vi', 'en']]);
    expect(worker.ended).toBe(false);
    worker.onmessage!();
    expect(worker.ended).toBe(true);
    // Nothing made on this thread.
    expect(warmed).toEqual([]);
  });

  it('are made on the page thread once it is idle where no worker can start (one language per idle turn)', async () => {
    vi.stubGlobal('Worker', undefined);
    warmFormatsSoon();
    expect(warmed).toEqual([]);
    await vi.waitFor(() => expect(warmed).toEqual(['vi', 'en']));
  });

  it('are made on the page thread when the worker fails to load', async () => {
    let fail: ((e: { preventDefault(): void }) => void) | undefined;
    let ended = false;
    vi.stubGlobal(
      'Worker',
      class {
        set onerror(f: (e: { preventDefault(): void }) => void) {
          fail = f;
        }
        set onmessage(_f: unknown) {}
        postMessage() {}
        terminate() {
          ended = true;
        }
      },
    );
    warmFormatsSoon();
    const prevented = vi.fn();
    fail!({ preventDefault: prevented });
    expect(ended).toBe(true);
    expect(prevented).toHaveBeenCalled();
    await vi.waitFor(() => expect(warmed).toEqual(['vi', 'en']));
  });
});
