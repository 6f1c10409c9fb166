import { afterEach, describe, expect, it, vi } from 'vitest';
import { finishWorkBeforeQuit } from '../../../main/electron/shutdown';

/** The thinnest stand-in for Electron's `app`: records listeners and quits; a quit emits `will-quit`. */
function fakeApp() {
  const listeners: Array<(event: { preventDefault(): void }) => void> = [];
  const app = {
    quits: 0,
    exited: false,
    on(event: string, fn: (event: { preventDefault(): void }) => void) {
      if (event === 'will-quit') listeners.push(fn);
      return app;
    },
    /** What Electron does on a quit: emit will-quit; the process ends unless a listener prevents it. */
    quit() {
      app.quits++;
      let prevented = false;
      for (const fn of listeners) fn({ preventDefault: () => (prevented = true) });
      if (!prevented) app.exited = true;
    },
  };
  return app;
}

afterEach(() => vi.useRealTimers());

describe('desktop shutdown', () => {
  it('holds the quit until services.close() has finished, then quits once', async () => {
    const app = fakeApp();
    let finish!: () => void;
    const close = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    finishWorkBeforeQuit(app as never, close);
    app.quit();
    expect(close).toHaveBeenCalledOnce();
    expect(app.exited).toBe(false);
    app.quit(); // a second Ctrl+Q while closing does not close twice
    expect(close).toHaveBeenCalledOnce();
    expect(app.exited).toBe(false);
    finish();
    await vi.waitFor(() => expect(app.exited).toBe(true));
    expect(close).toHaveBeenCalledOnce();
  });

  it('quits at the deadline when the work does not finish, and says so in the log', async () => {
    vi.useFakeTimers();
    const app = fakeApp();
    const log = vi.fn();
    finishWorkBeforeQuit(app as never, () => new Promise<void>(() => {}), { deadlineMs: 10_000, log });
    app.quit();
    await vi.advanceTimersByTimeAsync(9_999);
    expect(app.exited).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(app.exited).toBe(true);
    expect(log).toHaveBeenCalledWith('warn', expect.stringContaining('10 s'));
  });

  it('a failing close is logged and the app still quits', async () => {
    const app = fakeApp();
    const log = vi.fn();
    finishWorkBeforeQuit(app as never, () => Promise.reject(new Error('disk gone')), { log });
    app.quit();
    await vi.waitFor(() => expect(app.exited).toBe(true));
    expect(log).toHaveBeenCalledWith('error', expect.stringContaining('disk gone'));
  });

  it('waits for the real services: the email sender and downloads are closed before exit', async () => {
    const { createServices } = await import('../../../main/services');
    const { MemorySecretStore } = await import('../../../main/services/secrets');
    const { makeTempDir } = await import('../../support/temp-dir');
    const tmp = makeTempDir('einvoice-shutdown-');
    try {
      const services = await createServices({ dataDir: tmp.dir, version: 'test', host: 'electron', background: false, secrets: new MemorySecretStore() });
      const order: string[] = [];
      const emailsStop = services.emails.stop.bind(services.emails);
      services.emails.stop = async () => {
        await new Promise((r) => setTimeout(r, 50));
        await emailsStop();
        order.push('emails stopped');
      };
      const app = fakeApp();
      finishWorkBeforeQuit(app as never, async () => {
        await services.close();
        order.push('services closed');
      });
      app.quit();
      await vi.waitFor(() => expect(app.exited).toBe(true));
      order.push('exited');
      expect(order).toEqual(['emails stopped', 'services closed', 'exited']);
    } finally {
      tmp.cleanup();
    }
  });
});
