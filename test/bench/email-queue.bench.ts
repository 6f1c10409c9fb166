/**
 * The email queue at 10 000 and 100 000 rows, in one run:
 * 1. CSV import through EmailService.importCsv (streamed parse + check on the reader thread, one
 *    transaction per chunk on this one) into a real SQLite file: rows/s at both sizes (the 10 000
 *    first, which starts the reader thread, as an app's first import does); acceptance ≥ 50 000
 *    rows/s at 100 000; then a page of 50 read through the service at the start, the middle and
 *    the end of the queue, sorted by entry and by name (the far half is read from the other end);
 * 2. the queue screen in the bench browser (test/support/bench-browser.ts: Chromium's headless
 *    shell where installed, as Electron's kind of Chromium; `BENCH_BROWSER` names another) via the
 *    browser host and the built renderer, over that data folder: open (the
 *    nav click to the painted first rows), a sort (header click to the painted re-sorted rows) and a
 *    filter (state chip click to the painted filtered rows), each timed in the page from the click to
 *    the paint of the first frame showing the rows, five times (the screen left for the drafts and
 *    opened again); acceptance at 100 000: the medians < 200 ms, and the first open after the app
 *    started (nothing of the screen compiled or drawn before) < 200 ms too: one sample per start,
 *    so the app is started three times and each is printed, their median held to the goal;
 * 3. scroll frame times (requestAnimationFrame deltas while the table scrolls 80 px and 400 px per
 *    frame, and page-sized jumps), next to an idle rAF baseline; frames over 33 ms are counted and
 *    printed for EVERY pass; acceptance 0 in every pass at 100 000. The same passes also run on a
 *    plain comparison page in the same browser, just before and just after the largest size's
 *    screen (rows of text all in the page, no script; see `plainPageScroll`), printed beside them.
 * No service is needed: the profile points at a closed port, so nothing is sent.
 * `EMAIL_QUEUE_SIZES=1000,5000` runs other sizes (the last one is held to the acceptance figures);
 * `EMAIL_QUEUE_READER=here` reads the CSV on the importing thread (the comparison without the reader thread).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from '@playwright/test';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SignedInSession } from '../../main/services/auth';
import { EmailService } from '../../main/services/emails';
import { CsvReader } from '../../main/services/emails/csv-reader';
import { ProfileService } from '../../main/services/profiles';
import { openDatabase } from '../../main/services/store';
import { startHostProcess } from '../integration/browser-host/host-process';
import { longFrames, PLAIN_ROWS, plainPageScroll, scrollPasses, twoFrameFrames, type ScrollPass } from '../support/frames';
import { benchBrowserName, launchBenchBrowser } from '../support/bench-browser';
import { benchSizes } from '../support/bench-sizes';
import { median, percentile } from '../support/stats';

const SIZES = benchSizes('EMAIL_QUEUE_SIZES', [10_000, 100_000]);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'einvoice-email-queue-bench-'));
let browser: Browser;
/** The app's CSV reader, with its thread (the built one), one for the run as the app has one for its life. */
const csvWorker = path.join(root, 'out', 'main', 'email-csv.cjs');
let csvReader: CsvReader;

beforeAll(async () => {
  if (!fs.existsSync(path.join(root, 'out', 'main', 'browser-host.cjs')) || !fs.existsSync(csvWorker)) {
    execFileSync('flock', ['/tmp/build.lock', process.execPath, 'scripts/build.mjs', '--quiet'], { cwd: root, stdio: 'inherit' });
  }
  csvReader = new CsvReader(process.env.EMAIL_QUEUE_READER === 'here' ? null : csvWorker);
  browser = await launchBenchBrowser();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await csvReader?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

function csvText(n: number): string {
  const lines = ['TransactionID;ReceiverName;ReceiverEmail;CCEmail;BCCEmail;ReplyEmail'];
  for (let i = 0; i < n; i++) {
    // Names in a different order from the entry numbers, so a sort by name moves every row.
    const who = (i * 7919) % n;
    lines.push(
      `TX${String(i).padStart(8, '0')}ABCDEF;Khách hàng số ${who + 1};"khach${who}@example.com, ketoan${i % 97}@example.vn";${i % 5 === 0 ? `cc${i}@example.com` : ''};;lienhe@cuahang.vn`,
    );
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** Imports `n` rows into a new data folder; returns the folder and the import time. */
async function importRows(n: number): Promise<{ dataDir: string; ms: number; cpuMs: number; pageMs: PageReads }> {
  const dataDir = path.join(work, `data-${n}`);
  const store = openDatabase(dataDir);
  new ProfileService(store);
  const session = { profile: { id: 'sandbox' } } as unknown as SignedInSession;
  const emails = new EmailService({
    store,
    activeProfileId: () => 'sandbox',
    gate: { ready: async () => session, reportAuthFailure: async () => {} },
    csvReader,
  });
  // The file as the app gets it: read from disk in one piece (the CLI), or so received from the
  // window. (The string csvText builds is made of pieces; the import would join them in its time.)
  const file = path.join(work, `emails-${n}.csv`);
  fs.writeFileSync(file, csvText(n));
  const text = fs.readFileSync(file, 'utf8');
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const r = await emails.importCsv(text, 'withCode');
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  expect(r.added).toHaveLength(n);
  expect(r.rejected).toHaveLength(0);
  // A queue as it looks after a day of sending: mostly sent, some failed, some unknown, the rest waiting.
  store.db.exec(`UPDATE email_outbox SET state = 'sent', send_email_status = 3, attempts = 1 WHERE id % 10 <> 0`);
  store.db.exec(
    "UPDATE email_outbox SET state = 'failed', error_code = 'InvalidEmail', send_email_status = 2, last_error = 'bad address', last_error_vi = 'sai địa chỉ' WHERE id % 37 = 0",
  );
  store.db.exec("UPDATE email_outbox SET state = 'unknown', last_error = 'reset', last_error_vi = 'ngắt kết nối' WHERE id % 53 = 0");
  const pageMs = timePageReads(emails, n);
  store.close();
  return { dataDir, ms, cpuMs: (cpu.user + cpu.system) / 1000, pageMs };
}

/** Median ms of a page of 50 read by the app's list call at the start, the middle and the end of the queue, by entry and by name. */
type PageReads = Record<'id' | 'receiverName', { start: number; middle: number; end: number }>;

function timePageReads(emails: EmailService, n: number): PageReads {
  const at = (sort: 'id' | 'receiverName', offset: number) => {
    const times: number[] = [];
    for (let i = 0; i < 15; i++) {
      const t = performance.now();
      expect(emails.list({ sort, dir: 'desc', offset, limit: 50 }).items).toHaveLength(50);
      times.push(performance.now() - t);
    }
    return median(times);
  };
  const reads = (sort: 'id' | 'receiverName') => ({ start: at(sort, 0), middle: at(sort, Math.floor(n / 2)), end: at(sort, n - 50) });
  return { id: reads('id'), receiverName: reads('receiverName') };
}

/**
 * Clicks `selector` (the first match, or the first whose text starts with `text`) in the page and
 * resolves with the ms from the click to the paint of the first frame in which `done()` holds
 * (checked in every frame's animation callback; a task posted from that callback runs once the
 * frame is painted).
 */
async function timeAction(page: Page, click: { selector: string; text?: string }, done: string): Promise<number> {
  return page.evaluate(
    async ({ click, done }) => {
      const check = new Function(`return (${done})`) as () => boolean;
      const target = [...document.querySelectorAll<HTMLElement>(click.selector)].find((el) => !click.text || el.textContent?.startsWith(click.text));
      if (!target) throw new Error(`nothing to click: ${click.selector} ${click.text ?? ''}`);
      const start = performance.now();
      target.click();
      await new Promise<void>((resolve) => {
        const tick = () => (check() ? setTimeout(resolve, 0) : requestAnimationFrame(tick));
        requestAnimationFrame(tick);
      });
      return performance.now() - start;
    },
    { click, done },
  );
}

/** Each step is timed REPEAT times; the medians are compared with the goal (the machine is shared). */
const REPEAT = 5;
/** The app is started this many times for the first open after a start (its median is held to the goal). */
const FIRST_OPEN_STARTS = 3;

interface ScreenFigures {
  /** The first open after the app started (nothing of the screen drawn before), one per start; then the medians. */
  firstOpens: number[];
  openMs: number;
  sortMs: number;
  filterMs: number;
  runs: { open: number[]; sort: number[]; filter: number[] };
  rendered: number;
  idle: number[];
  passes: ScrollPass[];
}

/** A pass's frame times in a line. */
function passFigures(p: ScrollPass): string {
  return `${p.name}: median ${median(p.frames).toFixed(1)} ms, p95 ${percentile(p.frames, 95).toFixed(1)} ms, max ${Math.max(...p.frames).toFixed(1)} ms, frames of more than two display frames (over 33.43 ms): ${longFrames(p.frames).length} of ${p.frames.length}, of two (33.3–33.4 ms): ${twoFrameFrames(p.frames).length}`;
}

/** The check that the queue shows its rows and its total of `n`. */
function allShown(n: number): string {
  const total = new Intl.NumberFormat('vi-VN').format(n);
  return `document.querySelector('[data-testid="email-scroll"] [role=row][data-tx]') !== null && (document.querySelector('.emails-total')?.textContent ?? '').startsWith('${total} ')`;
}

/**
 * Starts the app (a host on the data folder, a fresh page) and hands it to `use` as soon as the app
 * shows its areas; both are closed after (a page left open on a stopped host keeps retrying and
 * would load the next size's import).
 */
async function withApp<T>(dataDir: string, use: (page: Page) => Promise<T>): Promise<T> {
  const host = await startHostProcess({ dataDir, env: { EINVOICE_SANDBOX_URL: 'http://127.0.0.1:9' }, stderr: 'inherit' });
  try {
    const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    try {
      await page.goto(await host.newLaunchUrl());
      await page.getByRole('navigation').getByRole('button', { name: 'Hàng đợi email' }).waitFor();
      return await use(page);
    } finally {
      await page.close();
    }
  } finally {
    await host.stop();
  }
}

/** The queue opened as soon as a freshly started app shows its areas (nothing of the screen compiled or drawn before). */
function firstOpenAfterStart(dataDir: string, n: number): Promise<number> {
  return withApp(dataDir, (page) => timeAction(page, { selector: 'nav button', text: 'Hàng đợi email' }, allShown(n)));
}

async function measureScreen(dataDir: string, n: number): Promise<ScreenFigures> {
  return withApp(dataDir, async (page) => {
    const failed = Math.floor(n / 37) - Math.floor(n / (37 * 53));
    const failedText = new Intl.NumberFormat('vi-VN').format(failed);
    const runs = { open: [] as number[], sort: [] as number[], filter: [] as number[] };
    for (let r = 0; r < REPEAT; r++) {
      // Open the queue from another area (the first time, as soon as the app shows its areas).
      if (r > 0) await timeAction(page, { selector: 'nav button', text: 'Hóa đơn nháp' }, `document.querySelector('[data-testid="email-scroll"]') === null`);
      runs.open.push(await timeAction(page, { selector: 'nav button', text: 'Hàng đợi email' }, allShown(n)));
      // Sort by receiver name: done when the first row is the smallest name.
      runs.sort.push(
        await timeAction(
          page,
          { selector: '.emails-head .col-receiverName button.sort' },
          `document.querySelector('[data-testid="email-scroll"] [role=row][data-index="0"]')?.textContent?.includes('Khách hàng số 1') === true && document.querySelector('[data-testid="email-scroll"] [role=row][data-index="0"]')?.textContent?.includes('Khách hàng số 10') === false`,
        ),
      );
      // Filter on the failed ones: done when the rows shown are failed ones and the count says so.
      runs.filter.push(
        await timeAction(
          page,
          { selector: '.emails-filters button[data-state="failed"]' },
          `document.querySelector('[data-testid="email-scroll"] [role=row][data-index="0"]')?.getAttribute('data-state') === 'failed' && (document.querySelector('.emails-total')?.textContent ?? '').startsWith('${failedText} ')`,
        ),
      );
      // Back to every row (the sort goes back to entry order when the screen opens again).
      await timeAction(
        page,
        { selector: '.emails-filters button[data-state="all"]' },
        `${allShown(n)} && document.querySelector('[data-testid="email-scroll"] [role=row][data-index="0"][data-tx]') !== null`,
      );
    }
    const measured = await scrollPasses(page, '[data-testid="email-scroll"]');
    const firstOpens = [runs.open[0]!];
    return { firstOpens, openMs: median(runs.open), sortMs: median(runs.sort), filterMs: median(runs.filter), runs, ...measured };
  });
}

it('imports, opens, sorts, filters and scrolls the email queue at 10 000 and 100 000 rows', async () => {
  const figures: Array<{ n: number; importMs: number; importCpuMs: number; pageMs: PageReads; screen: ScreenFigures }> = [];
  const plain: Array<{ when: string; passes: ScrollPass[] }> = [];
  const comparison = async (when: string) => {
    const tab = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    plain.push({ when, passes: (await plainPageScroll(tab)).passes });
    await tab.close();
  };
  for (const n of SIZES) {
    const { dataDir, ms, cpuMs, pageMs } = await importRows(n);
    // The comparison page scrolls just before and just after the largest size's screen.
    if (n === SIZES[SIZES.length - 1]) await comparison('before');
    const screen = await measureScreen(dataDir, n);
    if (n === SIZES[SIZES.length - 1]) await comparison('after');
    // The first open after a start is one sample per start: it is taken after FIRST_OPEN_STARTS starts.
    while (screen.firstOpens.length < FIRST_OPEN_STARTS) screen.firstOpens.push(await firstOpenAfterStart(dataDir, n));
    figures.push({ n, importMs: ms, importCpuMs: cpuMs, pageMs, screen });
  }
  const load = os.loadavg()[0]!.toFixed(1);
  const lines = [`email queue bench (${benchBrowserName()}, via the browser host, viewport 1366x768; load average ${load} on ${os.cpus().length} CPUs)`];
  const pages = (p: PageReads[keyof PageReads]) => `${p.start.toFixed(2)} / ${p.middle.toFixed(2)} / ${p.end.toFixed(2)} ms`;
  for (const { n, importMs, importCpuMs, pageMs, screen: s } of figures) {
    lines.push(
      `  ${n} rows:`,
      `    CSV import: ${importMs.toFixed(0)} ms = ${Math.round(n / (importMs / 1000))} rows/s (CPU ${importCpuMs.toFixed(0)} ms = ${Math.round(n / (importCpuMs / 1000))} rows per CPU-second)`,
      `    medians of ${REPEAT} (click → first frame painted with the rows): open ${s.openMs.toFixed(0)} ms [${s.runs.open.map((x) => x.toFixed(0)).join(', ')}], sort by name ${s.sortMs.toFixed(0)} ms [${s.runs.sort.map((x) => x.toFixed(0)).join(', ')}], filter failed ${s.filterMs.toFixed(0)} ms [${s.runs.filter.map((x) => x.toFixed(0)).join(', ')}]`,
      `    first open after the app started, median of ${s.firstOpens.length} starts: ${median(s.firstOpens).toFixed(0)} ms [${s.firstOpens.map((x) => x.toFixed(0)).join(', ')}]; ${s.rendered} row elements in the DOM`,
      `    a page of 50 read by the service at the start / middle / end: by entry ${pages(pageMs.id)}, by name ${pages(pageMs.receiverName)}`,
      `    idle rAF baseline: median ${median(s.idle).toFixed(1)} ms, max ${Math.max(...s.idle).toFixed(1)} ms`,
      ...s.passes.map((p) => `    scroll ${passFigures(p)}`),
    );
  }
  for (const { when, passes } of plain)
    lines.push(
      `  the same passes on a comparison page (${PLAIN_ROWS} rows of text all in the page, no script), ${when} the ${SIZES[SIZES.length - 1]} rows' screen:`,
      ...passes.map((p) => `    ${passFigures(p)}`),
    );
  const small = figures[0]!;
  const big = figures[figures.length - 1]!;
  if (figures.length > 1) {
    lines.push(
      `  growth ${big.n / small.n}× rows: import rate ${(big.n / big.importMs / (small.n / small.importMs)).toFixed(2)}×, open ${(big.screen.openMs / small.screen.openMs).toFixed(2)}×, sort ${(big.screen.sortMs / small.screen.sortMs).toFixed(2)}×, filter ${(big.screen.filterMs / small.screen.filterMs).toFixed(2)}×`,
    );
  }
  console.log(lines.join('\n'));
  expect(big.n / (big.importMs / 1000)).toBeGreaterThanOrEqual(50_000);
  expect(big.screen.openMs).toBeLessThan(200);
  expect(median(big.screen.firstOpens), 'the first open after the app started').toBeLessThan(200);
  expect(big.screen.sortMs).toBeLessThan(200);
  expect(big.screen.filterMs).toBeLessThan(200);
  for (const p of big.screen.passes) expect(longFrames(p.frames), p.name).toEqual([]);
  expect(big.screen.rendered).toBeLessThan(200);
}, 900_000);
