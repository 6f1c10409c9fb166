/**
 * Runs `fn` when the page is idle after the current frame (at the latest after `timeout` ms), so
 * work a keystroke sets off (validating, saving the whole draft) or a warm-up never delays a paint;
 * a browser without requestIdleCallback runs it after a timer instead. Returns a cancel function.
 */
export function whenIdle(fn: () => void, timeout = 1000): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(() => fn(), { timeout });
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(fn, 0);
  return () => clearTimeout(handle);
}
