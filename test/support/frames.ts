import type { Page } from '@playwright/test';

/**
 * The times between `n` successive animation frames (the first, partial one dropped), `step`
 * called in each frame; a step that says false ends the pass early.
 */
export type RafDeltas = (n: number, step?: () => boolean | void) => Promise<number[]>;

/** Puts the frame sampler in the page as `window.__rafDeltas` (again after every navigation). */
export async function installFrameSampler(page: Page): Promise<void> {
  await page.evaluate(() => {
    const rafDeltas: RafDeltas = (n, step) =>
      new Promise<number[]>((resolve) => {
        const out: number[] = [];
        let last = performance.now();
        const tick = (now: number) => {
          out.push(now - last);
          last = now;
          const more = step?.() !== false;
          if (out.length < n && more) requestAnimationFrame(tick);
          else resolve(out.slice(1));
        };
        requestAnimationFrame(tick);
      });
    (window as unknown as { __rafDeltas: RafDeltas }).__rafDeltas = rafDeltas;
  });
}
