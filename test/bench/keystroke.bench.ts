/**
 * Drafting screen keystroke cost: time from a keystroke's input event to the next painted frame
 * with the new totals, in Chromium (browser host, built renderer), for drafts of 5, 200 and 1 000
 * lines in one run (alternated, so machine noise hits all alike). In the page, the input event's
 * timestamp is taken; the first requestAnimationFrame callback after it reads the totals (they
 * must already be the new ones, so that frame, the one right after the event, is the one that
 * paints them: an update put off by a transition, a deferred value or a timer would fail here),
 * and a task posted from that callback marks the end of the frame's own work (style, layout,
 * paint, commit), which runs between the callback and the next task.
 *
 * Two marks of "painted" are printed:
 * - painted (the figure held to the limits): a `scheduler.postTask` task of `user-blocking`
 *   priority posted from the frame's callback. It runs as soon as the frame's work is done; only
 *   input events still waiting (this keystroke's own keyup) go first.
 * - old mark (printed beside it, as before this change): a MessageChannel message posted from the
 *   same callback. It is an ordinary task, so it also waits behind every ordinary task queued
 *   during the keystroke that runs after the frame has been painted. In a Chromium trace of this
 *   bench most of the gap was Chromium's own autofill task `FormControlDidChange` (2–10 ms per
 *   keystroke on this machine; Electron has no autofill) and the `selectionchange` dispatch: work
 *   that starts after the new totals were painted, so it is not part of the time to paint them.
 *
 * Each keystroke is also split in two: from the event to the start of the frame (the event's own
 * handlers, then the wait for the display's next frame, which at 60 Hz can be anything up to
 * 16.7 ms wherever the key falls) and the frame's own work (style, layout, paint, layers, commit).
 *
 * A plain page (one field, one total set by its input event, no app) is measured the same way in
 * the same rounds and printed first, for comparison. Keystrokes are 30–46 ms apart, spread over a
 * whole frame (`KEYSTROKE_GAP=120` sets the base to 120 ms, a cashier's pace); where each fell in
 * the display's frame is printed, in four bins.
 *
 * Prints medians, p95 and the ratios; acceptance: 1 000-line p95 ≤ 16.7 ms (the next frame at
 * 60 Hz) and 1 000 / 5 (medians) < 3.
 * `KEYSTROKE_SIZES=5,1000` measures other sizes (the first is the small one, the last is held to the limits).
 *
 * The browser (test/support/bench-browser.ts): Chromium's headless shell where it is installed,
 * as Electron's kind of Chromium. Chrome's form autofill, one of the features Electron does not
 * have, reads the whole form after every keystroke (when it has under about 200 fields, as a long
 * draft's screen does) and sends it to the browser process; on a 2-core machine that work competes
 * with the page for a core. Electron's renderer only looks at the typed field's own datalist.
 * `BENCH_BROWSER=/usr/bin/chromium` measures in Chrome, autofill included.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from '@playwright/test';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { emptyLine, type DraftLine } from '../../common/money';
import { startHostProcess, type HostProcess } from '../integration/browser-host/host-process';
import { benchBrowserName, launchBenchBrowser } from '../support/bench-browser';
import { benchSizes } from '../support/bench-sizes';
import { median, percentile } from '../support/stats';

const WARMUP = 15;
const SAMPLES = 160;
const GAP = Number(process.env.KEYSTROKE_GAP ?? 30);

let host: HostProcess;
let browser: Browser;

async function startHost(): Promise<HostProcess> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'einvoice-bench-keys-'));
  // No service needed: point the Sandbox profile at a closed port (templates answer from the empty cache).
  return startHostProcess({ dataDir, env: { EINVOICE_SANDBOX_URL: 'http://127.0.0.1:9' } });
}

async function call<T>(name: string, body: unknown): Promise<T> {
  const res = await fetch(`${host.origin}/api/call/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-einvoice-secret': host.secret },
    body: JSON.stringify(body),
  });
  const r = (await res.json()) as { ok: boolean; value: T; error?: unknown };
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
}

function lines(n: number): DraftLine[] {
  return Array.from({ length: n }, (_, i) => ({
    ...emptyLine(1),
    ItemCode: `SP${String(i + 1).padStart(4, '0')}`,
    ItemName: `Mặt hàng số ${i + 1}`,
    UnitName: 'cái',
    Quantity: String(1 + (i % 7)),
    UnitPrice: String(10_000 + i * 137),
    VATRateName: ['8%', '10%', '5%'][i % 3]!,
  }));
}

async function makeDraft(n: number): Promise<string> {
  const rec = await call<{ id: string; draft: Record<string, unknown> }>('drafts.create', {});
  await call('drafts.save', {
    id: rec.id,
    draft: { ...rec.draft, BuyerLegalName: 'Công ty Đo Hiệu Năng', BuyerTaxCode: '0101243150', BuyerAddress: 'Hà Nội', lines: lines(n) },
  });
  return rec.id;
}

/** One keystroke: to the painted totals, the same by the old mark, and to the start of the frame that paints them. */
type KeySample = { ms: number; oldMs: number; toFrame: number; phase: number };

/** Opens the draft and finds its last line's quantity cell, where the keystrokes are typed. */
async function openDraft(page: Page, id: string, lineCount: number): Promise<Locator> {
  // The first visit signs this browser in; later ones only switch the draft and reload, as before.
  if (!page.url().startsWith(host.origin)) await page.goto(await host.newLaunchUrl());
  await page.evaluate((d) => sessionStorage.setItem('einvoice.openDraft', d), id);
  await page.reload();
  await page.getByTestId('total-amount').waitFor();
  // The cashier types in the last line (the grid renders only the rows near the viewport).
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  // The quantity cell: a digit typed at its end keeps it a valid number (a price cell shows
  // `37.263`, where a fifth digit after the dot would be a refused entry, not a typical keystroke).
  return page.locator(`[data-path="lines[${lineCount - 1}].Quantity"]`);
}

/**
 * The plain page: one field and one total that its input event sets, no app, measured the same
 * way beside the drafts for comparison.
 */
async function openPlain(page: Page): Promise<Locator> {
  await page.setContent(
    '<!doctype html><html lang="vi"><body><label>Số lượng <input value="12"></label><p>Tổng: <span data-testid="total-amount">12.000</span></p></body></html>',
  );
  await page.evaluate(() => {
    const field = document.querySelector('input')!;
    const total = document.querySelector('[data-testid="total-amount"]')!;
    const format = new Intl.NumberFormat('vi-VN');
    field.addEventListener('input', () => {
      total.textContent = format.format(Number(field.value || '0') * 1000);
    });
  });
  return page.getByLabel('Số lượng');
}

/** Measures keystrokes typed at the end of the field `open` finds. */
async function measure(page: Page, open: (page: Page) => Promise<Locator>): Promise<KeySample[]> {
  const target = await open(page);
  await target.focus();
  await page.keyboard.press('End');
  await page.evaluate(() => {
    type Sample = KeySample & { atFrame: string; total: string };
    const w = window as unknown as { __samples: Sample[] };
    const totalText = () => document.querySelector('[data-testid="total-amount"]')?.textContent ?? '';
    const post = (fn: () => void) => {
      const s = (window as unknown as { scheduler?: { postTask(f: () => void, o: { priority: string }): Promise<void> } }).scheduler;
      if (s) void s.postTask(fn, { priority: 'user-blocking' });
      else setTimeout(fn, 0);
    };
    w.__samples = [];
    // Where each key falls in the display's frame: frames begin every 1000/60 ms from the last seen.
    const period = 1000 / 60;
    let lastFrame = NaN;
    document.addEventListener(
      'input',
      (e) => {
        const start = e.timeStamp;
        const phase = (((start - lastFrame) % period) + period) % period;
        requestAnimationFrame((frameTime) => {
          lastFrame = frameTime;
          const sample = { ms: NaN, oldMs: NaN, toFrame: performance.now() - start, phase, atFrame: totalText(), total: '' };
          let pending = 2;
          const done = () => {
            if (--pending === 0) w.__samples.push(sample);
          };
          // Both tasks run once this frame has been painted (see the header).
          post(() => {
            sample.ms = performance.now() - start;
            done();
          });
          const ch = new MessageChannel();
          ch.port1.onmessage = () => {
            sample.oldMs = performance.now() - start;
            sample.total = totalText();
            done();
          };
          ch.port2.postMessage(null);
        });
      },
      true,
    );
  });
  const samples: KeySample[] = [];
  let lastTotal = await page.getByTestId('total-amount').textContent();
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    // Type a digit, then take it away again: each keystroke changes the totals.
    await page.keyboard.press(i % 2 === 0 ? String((i / 2) % 10) : 'Backspace');
    await page.waitForFunction((k) => (window as unknown as { __samples: unknown[] }).__samples.length > k, i);
    const s = await page.evaluate((k) => (window as unknown as { __samples: Array<KeySample & { atFrame: string; total: string }> }).__samples[k]!, i);
    // The frame right after the event already has the new totals.
    expect(s.atFrame).not.toBe(lastTotal);
    expect(s.total).toBe(s.atFrame);
    lastTotal = s.total;
    if (i >= WARMUP) samples.push({ ms: s.ms, oldMs: s.oldMs, toFrame: s.toFrame, phase: s.phase });
    // The gap is spread over a whole 60 Hz frame: a person's keys fall anywhere in the display's
    // frame, where a fixed gap put every one at the same point of it.
    await page.waitForTimeout(GAP + ((i * 7) % 17));
  }
  return samples;
}

beforeAll(async () => {
  host = await startHost();
  browser = await launchBenchBrowser();
});
afterAll(async () => {
  await browser?.close();
  host?.child.kill('SIGTERM');
  if (host) fs.rmSync(host.dataDir, { recursive: true, force: true });
});

const SIZES = benchSizes('KEYSTROKE_SIZES', [5, 200, 1_000]);

type Measured = { label: string; samples: number[]; old: number[]; toFrame: number[]; phase: number[] };

function record(into: Measured, samples: KeySample[]): void {
  for (const s of samples) {
    into.samples.push(s.ms);
    into.old.push(s.oldMs);
    into.toFrame.push(s.toFrame);
    if (Number.isFinite(s.phase)) into.phase.push(s.phase);
  }
}

it('keystroke → painted totals: 5, 200 and 1 000-line drafts, beside a plain page', async () => {
  const drafts: Array<Measured & { n: number; id: string }> = [];
  for (const n of SIZES) drafts.push({ n, label: `${String(n).padStart(4)} lines`, id: await makeDraft(n), samples: [], old: [], toFrame: [], phase: [] });
  const plain: Measured = { label: 'plain page', samples: [], old: [], toFrame: [], phase: [] };
  const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  const plainTab = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  for (let round = 0; round < 2; round++) {
    record(plain, await measure(plainTab, openPlain));
    for (const d of drafts) record(d, await measure(page, (p) => openDraft(p, d.id, d.n)));
  }
  const small = drafts[0]!;
  const big = drafts[drafts.length - 1]!;
  const ratio = median(big.samples) / median(small.samples);
  const oldRatio = median(big.old) / median(small.old);
  const figures = (a: number[]) => `median ${median(a).toFixed(2)} ms, p95 ${percentile(a, 95).toFixed(2)} ms, max ${Math.max(...a).toFixed(2)} ms`;
  console.log(
    [
      `keystroke → painted totals (${benchBrowserName()}, ${small.samples.length} keystrokes each; load ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} at the end)`,
      ...[plain, ...drafts].map((d) => `  ${d.label}: ${figures(d.samples)}   | old mark: ${figures(d.old)}`),
      ...[plain, ...drafts].map((d) => {
        const frame = d.samples.map((ms, k) => ms - d.toFrame[k]!);
        return `  ${d.label}, event → frame start: ${figures(d.toFrame)}; the frame's own work: ${figures(frame)}`;
      }),
      `  ratio ${big.n}/${small.n} (medians): ${ratio.toFixed(2)} (old mark ${oldRatio.toFixed(2)})  (limits: ${big.n}-line p95 ≤ 16.7 ms, ratio < 3)`,
      ...[plain, ...drafts].map((d) => {
        const bins = [0, 4, 8, 12].map((from) => d.phase.filter((x) => x >= from && x < (from === 12 ? 17 : from + 4)).length);
        return `  ${d.label}, where the keys fell in the display's frame (ms after it began): 0–4 ${bins[0]}, 4–8 ${bins[1]}, 8–12 ${bins[2]}, 12–16.7 ${bins[3]}`;
      }),
      ...[plain, ...drafts].map((d) => {
        const slow = d.samples.flatMap((ms, k) => (ms > 16.7 ? [k] : []));
        if (slow.length === 0) return `  ${d.label}, keystrokes over 16.7 ms: none`;
        const toFrame = slow.map((k) => d.toFrame[k]!);
        const work = slow.map((k) => d.samples[k]! - d.toFrame[k]!);
        return `  ${d.label}, keystrokes over 16.7 ms: ${slow.length}; event → frame start median ${median(toFrame).toFixed(2)} ms, the frame's own work median ${median(work).toFixed(2)} ms`;
      }),
      `  ${big.n} lines over the plain page: p95 +${(percentile(big.samples, 95) - percentile(plain.samples, 95)).toFixed(2)} ms, median +${(median(big.samples) - median(plain.samples)).toFixed(2)} ms`,
    ].join('\n'),
  );
  expect(percentile(big.samples, 95)).toBeLessThanOrEqual(16.7);
  expect(ratio).toBeLessThan(3);
});
