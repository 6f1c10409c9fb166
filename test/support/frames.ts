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

/** One scrolling pass: its name and the times between its frames. */
export type ScrollPass = { name: string; frames: number[] };

/** One frame of a 60 Hz display. */
const DISPLAY_FRAME_MS = 1000 / 60;
/**
 * Chromium gives animation-frame times to 0.1 ms, so a frame that lasted two display frames
 * (33.33 ms) reads 33.3 or 33.4, and once subtracted 33.40000000000009 as well: compared with a
 * bare 33.4 it was counted as longer than two.
 */
const CLOCK_STEP_MS = 0.1;

/** Long frames: a frame that took more than two of a 60 Hz display's frames (over 33.43 ms). */
export function longFrames(frames: number[]): number[] {
  return frames.filter((x) => x > 2 * DISPLAY_FRAME_MS + CLOCK_STEP_MS);
}

/**
 * Frames that took two display frames (they read 33.3–33.4 ms; a frame lasts whole display frames,
 * so anything from one and a half up to the long ones' limit is taken as two): one frame missed,
 * printed beside the long ones.
 */
export function twoFrameFrames(frames: number[]): number[] {
  return frames.filter((x) => x > 1.5 * DISPLAY_FRAME_MS && x <= 2 * DISPLAY_FRAME_MS + CLOCK_STEP_MS);
}

/**
 * The scrolling passes a long table is held to, run on the scroller `selector`: an idle baseline,
 * then 80 px, 400 px and 4 000 px per frame (turning back at either end), then jumps from the end
 * to the top and back, as dragging the scroll bar does.
 */
export async function scrollPasses(page: Page, selector: string): Promise<{ idle: number[]; passes: ScrollPass[]; rendered: number }> {
  await installFrameSampler(page);
  return page.evaluate(async (sel) => {
    const el = document.querySelector<HTMLElement>(sel)!;
    const rafDeltas = (window as unknown as { __rafDeltas: RafDeltas }).__rafDeltas;
    const idle = await rafDeltas(120);
    const max = el.scrollHeight - el.clientHeight;
    const scrollAt = (px: number, n: number) => {
      let dirn = 1;
      return rafDeltas(n, () => {
        let next = el.scrollTop + dirn * px;
        if (next >= max || next <= 0) {
          dirn = -dirn;
          next = Math.max(0, Math.min(max, next));
        }
        el.scrollTop = next;
      });
    };
    const passes = [
      { name: '80 px/frame', frames: await scrollAt(80, 300) },
      { name: '400 px/frame', frames: await scrollAt(400, 600) },
      { name: 'page jumps (4 000 px/frame)', frames: await scrollAt(4000, 300) },
    ];
    const ends: number[] = [];
    for (let i = 0; i < 20; i++)
      ends.push(
        ...(await rafDeltas(3, () => {
          el.scrollTop = i % 2 === 0 ? max : 0;
        })),
      );
    passes.push({ name: 'end ↔ top jumps', frames: ends });
    return { idle, passes, rendered: el.querySelectorAll('[role=row]').length };
  }, selector);
}

/** How many rows the comparison page of {@link plainPageScroll} holds. */
export const PLAIN_ROWS = 300;

/**
 * The same passes on a plain comparison page in the same browser: {@link PLAIN_ROWS} rows of text
 * like the queue's, 40 px high in a scroller as tall as the queue's, all in the page from the
 * start, with no script and no windowing. Printed beside an app's passes, its long frames are
 * those this machine and browser make for a page that asks little of them while scrolling.
 */
export async function plainPageScroll(page: Page): Promise<{ idle: number[]; passes: ScrollPass[] }> {
  const rows = Array.from(
    { length: PLAIN_ROWS },
    (_, i) =>
      `<div role="row"><span>${i + 1}</span><span>TX${String(i).padStart(8, '0')}ABCDEF</span><span>Khách hàng số ${(i * 7) % PLAIN_ROWS}</span><span>khach${i}@example.com, ketoan${i % 97}@example.vn</span><span>Chờ gửi</span></div>`,
  ).join('');
  await page.setContent(
    `<!doctype html><html lang="vi"><head><style>body{margin:0;font:14px system-ui,sans-serif}#plain{height:max(240px,calc(100vh - 370px));overflow:auto;margin-top:150px}[role=row]{display:grid;grid-template-columns:80px 200px 240px 1fr 120px;height:40px;align-items:center;border-bottom:1px solid #ddd}[role=row] span{overflow:hidden;white-space:nowrap;text-overflow:ellipsis;padding:0 8px}</style></head><body><div id="plain">${rows}</div></body></html>`,
  );
  const { idle, passes } = await scrollPasses(page, '#plain');
  return { idle, passes };
}
