/** The clock and timers the updater uses; injected so tests move time instantly. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimers: Timers = {
  setTimeout(callback, ms) {
    const handle = setTimeout(callback, ms);
    // A pending update check must never keep the process (CLI, tests) alive.
    handle.unref?.();
    return handle;
  },
  clearTimeout(handle) {
    clearTimeout(handle as NodeJS.Timeout);
  },
};
