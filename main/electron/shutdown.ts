import type { App } from 'electron';

export interface ShutdownOptions {
  /** Longest wait for the work to finish before the app exits anyway (default 10 s). */
  deadlineMs?: number;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
}

/**
 * Lets the services finish before the app exits, as the browser host does on a signal: the
 * first `will-quit` is held while `close()` runs (the email sender's grace period, the download
 * pause), then the quit goes on — after the deadline at the latest.
 */
export function finishWorkBeforeQuit(app: Pick<App, 'on' | 'quit'>, close: () => Promise<void>, options: ShutdownOptions = {}): void {
  const deadlineMs = options.deadlineMs ?? 10_000;
  let state: 'running' | 'closing' | 'closed' = 'running';
  app.on('will-quit', (event) => {
    if (state === 'closed') return;
    event.preventDefault();
    if (state === 'closing') return;
    state = 'closing';
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'deadline'>((resolve) => {
      timer = setTimeout(() => resolve('deadline'), deadlineMs);
    });
    const closing = close().then(
      () => 'closed' as const,
      (error: unknown) => {
        options.log?.('error', `closing the services failed: ${error instanceof Error ? error.message : String(error)}`);
        return 'closed' as const;
      },
    );
    void Promise.race([closing, deadline]).then((outcome) => {
      clearTimeout(timer);
      if (outcome === 'deadline') options.log?.('warn', `the services did not finish within ${Math.round(deadlineMs / 1000)} s; quitting anyway`);
      state = 'closed';
      app.quit();
    });
  });
}
