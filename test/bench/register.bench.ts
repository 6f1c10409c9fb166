/**
 * The Issued invoices screen with a large register, in the bench browser (test/support/bench-browser.ts;
 * browser host, real SQLite file):
 * the register is filled straight through the register's store code with 10 000 and then 100 000
 * invoices of this month over four series, and for each size
 * 1. opening the screen (click in the side bar → the first rows and the count shown), against the
 *    same screen opened on an empty range in the same run (the screen's fixed cost: the ratio);
 * 2. a search for a buyer (time from the query leaving the 200 ms typing pause to the rows shown);
 * 3. a date filter ("Today" pressed → rows shown);
 * each timed from the click or input event as the page receives it (what a person waits for); the
 * same steps timed from before the test driver's own checks (scrolling into view, hit tests, its
 * round trips) are printed beside them, with where the time of a step went around the list call;
 * 4. the scroll frame time while the table scrolls through the whole list (rows fetched page by
 *    page as they come into view), frames over 33 ms per pass;
 * plus the register query alone in Node for the same filters. Goal: each of 1–3 under 100 ms.
 * `REGISTER_SIZES=1000,5000` runs other sizes.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import type { InvoiceKind } from '../../common/model';
import { vietnamToday } from '../../common/rules';
import { presetRange } from '../../common/rules/issued-register';
import { startSandbox, type Sandbox } from '../../main/sandbox';
import { ProfileService } from '../../main/services/profiles';
import { RegisterRepository, upsertRows, type RegisterRow } from '../../main/services/register/repository';
import { activeScope } from '../../main/services/register/service-key';
import { openDatabase, type Store } from '../../main/services/store';
import { startHostProcess } from '../integration/browser-host/host-process';
import { benchBrowserName, launchBenchBrowser } from '../support/bench-browser';
import { installFrameSampler, longFrames, type RafDeltas } from '../support/frames';
import { benchSizes } from '../support/bench-sizes';
import { median, percentile } from '../support/stats';

const SIZES = benchSizes('REGISTER_SIZES', [10_000, 100_000]);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'einvoice-register-bench-'));
const dataDir = path.join(work, 'data');
const REPEAT = 5;

let store: Store;
let sb: Sandbox;

const list = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');

const SERIES: Array<[string, InvoiceKind]> = [
  ['1C26TAA', 'withCode'],
  ['2C26TBB', 'withCode'],
  ['1K26TAA', 'withoutCode'],
  ['1C26MAA', 'cashRegister'],
];
const NAMES = [
  'Công ty TNHH Hoàng Long',
  'Nhà sách Phương Nam',
  'Cửa hàng Bách Hóa Xanh',
  'Công ty CP Sông Hồng',
  'Khách lẻ Trần Văn Bình',
  'Quán cà phê Ánh Dương',
];

/** Invoices `from`…`to-1`, dated over this month up to today, numbers rising per series. */
function rows(from: number, to: number): RegisterRow[] {
  const today = vietnamToday();
  const days = Number(today.slice(8, 10));
  const out: RegisterRow[] = [];
  for (let i = from; i < to; i++) {
    const [series, kind] = SERIES[i % SERIES.length]!;
    const day = String(1 + Math.floor(((i * 7919) % 100_003) / (100_003 / days))).padStart(2, '0');
    out.push({
      transactionId: `BENCH${String(i).padStart(8, '0')}`,
      refId: null,
      invSeries: series.replace('26', today.slice(2, 4)),
      invNo: String(Math.floor(i / SERIES.length) + 1).padStart(8, '0'),
      invDate: `${today.slice(0, 8)}${day}`,
      kind,
      buyerName: `${NAMES[i % NAMES.length]} ${i}`,
      buyerTaxCode: `0101${String(i % 1_000_000).padStart(6, '0')}`,
      buyerEmail: `khach${i}@example.vn`,
      currency: 'VND',
      total: String(100_000 + (i % 997) * 1000),
      totalWithoutVat: '0',
      totalVat: '0',
      invoiceCode: null,
      sendTaxStatus: i % 11 === 0 ? 1 : 2,
      eInvoiceStatus: 1,
      referenceType: 0,
      org: null,
    });
  }
  return out;
}

beforeAll(async () => {
  if (!fs.existsSync(path.join(root, 'out', 'main', 'browser-host.cjs'))) {
    execFileSync('flock', ['/tmp/build.lock', process.execPath, 'scripts/build.mjs', '--quiet'], { cwd: root, stdio: 'inherit' });
  }
  sb = await startSandbox({ port: 0, seed: 3, invoiceCount: 20 });
  store = openDatabase(dataDir);
  new ProfileService(store);
}, 300_000);

afterAll(async () => {
  store?.close();
  await sb?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

/** Waits (in the page) until the count line reads `equals` (or anything but `notEquals`) and, unless empty, a row is drawn; ms since `since` (the page's clock). */
async function shown(page: Page, want: { equals?: string; notEquals?: string }, since = 0): Promise<number> {
  return page.evaluate(
    async ({ want, since }) => {
      for (;;) {
        const total = document.querySelector('.issued-total')?.textContent ?? '';
        const ok = want.equals !== undefined ? total === want.equals : /^\d/.test(total) && total !== want.notEquals;
        const row = document.querySelector('.issued-scroll [role=row][data-tx]');
        if (ok && (row || total.startsWith('0 '))) return performance.now() - since;
        await new Promise((r) => requestAnimationFrame(r));
      }
    },
    { want, since },
  );
}

const now = (page: Page) => page.evaluate(() => performance.now());

/** Where the time of one step went: before the list call left, the call itself (the host's part to the first byte), after it came back. */
interface Split {
  before: number;
  call: number;
  host: number;
  after: number;
}

/** One list call's resource timing, in the page's clock. */
interface ListCall {
  start: number;
  total: number;
  host: number;
  bytes: number;
}

/** Runs `fn` in the page and in its calls' worker (the calls leave from it once it has started). */
async function everywhere<T>(page: Page, fn: () => T): Promise<T[]> {
  const workers = page.workers().filter((w) => w.url().includes('http-calls'));
  return [await page.evaluate(fn), ...(await Promise.all(workers.map((w) => w.evaluate(fn))))];
}

/** The issued.list calls the page and its workers timed, each in the page's clock, in the order they left. */
async function listCalls(page: Page): Promise<ListCall[]> {
  const pageOrigin = await page.evaluate(() => performance.timeOrigin);
  const seen = await everywhere(page, () =>
    (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((e) => e.name.includes('issued.list'))
      .map((e) => ({ start: performance.timeOrigin + e.startTime, total: e.duration, host: e.responseStart - e.requestStart, bytes: e.encodedBodySize })),
  );
  return seen
    .flat()
    .map((c) => ({ ...c, start: c.start - pageOrigin }))
    .sort((a, b) => a.start - b.start);
}

async function split(page: Page, t0: number, ms: number): Promise<Split | null> {
  const e = (await listCalls(page)).find((c) => c.start >= t0);
  return e ? { before: e.start - t0, call: e.total, host: e.host, after: t0 + ms - (e.start + e.total) } : null;
}
const splitText = (xs: Array<Split | null>) => {
  const ok = xs.filter((x): x is Split => x !== null);
  if (ok.length === 0) return 'no call seen';
  const m = (k: keyof Split) => median(ok.map((x) => x[k])).toFixed(0);
  return `before the call ${m('before')} ms, call ${m('call')} ms (host to first byte ${m('host')} ms), after it ${m('after')} ms`;
};

async function measureScreen(page: Page, count: number) {
  const nav = page.getByRole('navigation');
  const open: number[] = [];
  const empty: number[] = [];
  const search: number[] = [];
  const today: number[] = [];
  const splits = { open: [] as Array<Split | null>, today: [] as Array<Split | null> };
  // When the page itself got the click or the typed text (Playwright's checks before it acts are not the screen's time).
  const fromInput = { open: [] as number[], empty: [] as number[], search: [] as number[], today: [] as number[] };
  const inputAt = () => page.evaluate(() => (window as unknown as { inputAt: number }).inputAt);
  await everywhere(page, () => {
    performance.clearResourceTimings();
    performance.setResourceTimingBufferSize(10_000);
  });
  await page.evaluate(() => {
    for (const type of ['click', 'input'])
      document.addEventListener(type, () => ((window as unknown as { inputAt: number }).inputAt = performance.now()), true);
  });
  const all = `${new Intl.NumberFormat('vi-VN').format(count)} hóa đơn`;
  const box = page.getByRole('searchbox', { name: 'Tìm người mua hoặc số hóa đơn' });
  for (let r = 0; r < REPEAT; r++) {
    // Opening on this month (every invoice of the register matches).
    await nav.getByRole('button', { name: 'Hóa đơn nháp' }).click();
    let t0 = await now(page);
    await nav.getByRole('button', { name: 'Hóa đơn đã phát hành' }).click();
    open.push(await shown(page, { equals: all }, t0));
    fromInput.open.push(t0 + open.at(-1)! - (await inputAt()));
    splits.open.push(await split(page, t0, open.at(-1)!));
    // The same screen redrawn for a range with nothing in it: the fixed cost of a query and a redraw.
    await page.getByLabel('Từ ngày').fill('01/01/2001');
    await shown(page, { equals: all });
    t0 = await now(page);
    await page.getByLabel('Đến ngày').fill('02/01/2001');
    empty.push(await shown(page, { equals: '0 hóa đơn' }, t0));
    fromInput.empty.push(t0 + empty.at(-1)! - (await inputAt()));
    await page.getByRole('button', { name: 'Tháng này' }).click();
    await shown(page, { equals: all });
    // A search (the 200 ms typing pause is the screen's own wait, left out).
    t0 = await now(page);
    await box.fill(`bach hoa xanh ${r + 1}`);
    search.push(await shown(page, { notEquals: all }, t0 + 200));
    fromInput.search.push(t0 + search.at(-1)! - (await inputAt()));
    await box.fill('');
    await shown(page, { equals: all });
    // A date filter.
    t0 = await now(page);
    await page.getByRole('button', { name: 'Hôm nay' }).click();
    today.push(await shown(page, { notEquals: all }, t0));
    fromInput.today.push(t0 + today.at(-1)! - (await inputAt()));
    splits.today.push(await split(page, t0, today.at(-1)!));
    await page.getByRole('button', { name: 'Tháng này' }).click();
    await shown(page, { equals: all });
  }
  // What the list call costs on the wire (the steps above, not the scrolling): the host's time to the first byte and the body size.
  const calls = await listCalls(page);
  if (process.env.REGISTER_PROFILE) {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    for (let r = 0; r < 5; r++) {
      await page.getByRole('button', { name: 'Hôm nay' }).click();
      await shown(page, { notEquals: all });
      await page.getByRole('button', { name: 'Tháng này' }).click();
      await shown(page, { equals: all });
    }
    const { profile } = (await cdp.send('Profiler.stop')) as {
      profile: {
        nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number }>;
        samples: number[];
        timeDeltas: number[];
      };
    };
    const self = new Map<string, number>();
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    profile.samples.forEach((id, i) => {
      const n = byId.get(id)!;
      const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').at(-1)}:${n.callFrame.lineNumber}`;
      self.set(k, (self.get(k) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
    });
    console.log(
      [...self]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 40)
        .map(([k, v]) => `${v.toFixed(1)} ms ${k}`)
        .join('\n'),
    );
  }
  // Scrolling through the whole list, fetching as it goes.
  await installFrameSampler(page);
  const frames = await page.evaluate(async () => {
    const el = document.querySelector<HTMLElement>('[data-testid="issued-scroll"]')!;
    const rafDeltas = (window as unknown as { __rafDeltas: RafDeltas }).__rafDeltas;
    const idle = await rafDeltas(120);
    const max = el.scrollHeight - el.clientHeight;
    // One pass top to bottom in 600 frames (long jumps over pages never shown), then a gentle one.
    const step = Math.max(400, Math.ceil(max / 600));
    const pass = await rafDeltas(10_000, () => {
      el.scrollTop = Math.min(max, el.scrollTop + step);
      return el.scrollTop < max;
    });
    el.scrollTop = 0;
    const gentle = await rafDeltas(300, () => {
      el.scrollTop += 80;
      return true;
    });
    return { idle, pass, gentle, rendered: el.querySelectorAll('[role=row]').length };
  });
  return { open, empty, search, today, frames, calls, splits, fromInput };
}

it('opens, searches and filters the register in Chromium under 100 ms at 10 000 and 100 000 invoices, and scrolls it', async () => {
  const repo = new RegisterRepository(store);
  const scope = activeScope(store.db, 'sandbox');
  const host = await startHostProcess({ dataDir, env: { EINVOICE_SANDBOX_URL: sb.origin }, stderr: 'inherit' });
  const browser = await launchBenchBrowser();
  const lines = [`register bench (${REPEAT} runs each, medians; browser host + ${benchBrowserName()}; the machine is shared, figures are noisy)`];
  let filled = 0;
  try {
    for (const size of SIZES) {
      const t0 = performance.now();
      store.transaction((db) => upsertRows(db, scope, rows(filled, size), 'sync', new Date().toISOString()));
      filled = size;
      const insertMs = performance.now() - t0;
      // What a sync that added this many rows does at its end.
      const t1 = performance.now();
      repo.tidySearch();
      const tidyMs = performance.now() - t1;
      // The query alone (Node, the same SQL the screen runs).
      const month = presetRange('month');
      const q = (extra: object) => {
        const xs: number[] = [];
        for (let r = 0; r < REPEAT; r++) {
          const s = performance.now();
          repo.list(scope, { ...month, offset: 0, limit: 200, ...extra });
          xs.push(performance.now() - s);
        }
        return median(xs);
      };
      const sql = { open: q({}), search: q({ text: 'bach hoa xanh 1' }), today: q(presetRange('today')), deep: q({ offset: size - 200 }) };

      const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
      await page.goto(await host.newLaunchUrl());
      const m = await measureScreen(page, size);
      await page.close();
      const f = m.frames;
      lines.push(
        `  ${size.toLocaleString('vi-VN')} invoices (inserted in ${insertMs.toFixed(0)} ms, search index merged in ${tidyMs.toFixed(0)} ms):`,
        `    open the screen: ${median(m.fromInput.open).toFixed(0)} ms from the click [${list(m.fromInput.open)}]; empty range ${median(m.fromInput.empty).toFixed(0)} ms; ratio ${(median(m.fromInput.open) / median(m.fromInput.empty)).toFixed(2)}`,
        `    search a buyer: ${median(m.fromInput.search).toFixed(0)} ms after the typing pause [${list(m.fromInput.search)}]`,
        `    date filter (Today): ${median(m.fromInput.today).toFixed(0)} ms from the click [${list(m.fromInput.today)}]`,
        `    with the test driver's checks before it acts: open ${median(m.open).toFixed(0)} ms (empty range ${median(m.empty).toFixed(0)}), search ${median(m.search).toFixed(0)} ms, Today ${median(m.today).toFixed(0)} ms`,
        `      open: ${splitText(m.splits.open)}; Today: ${splitText(m.splits.today)}`,
        `    issued.list over HTTP: ${m.calls.length} calls, median ${median(m.calls.map((c) => c.total)).toFixed(1)} ms (host to first byte ${median(m.calls.map((c) => c.host)).toFixed(1)} ms), median body ${(median(m.calls.map((c) => c.bytes)) / 1024).toFixed(1)} KiB`,
        `    query alone (Node): open ${sql.open.toFixed(1)} ms, search ${sql.search.toFixed(1)} ms, today ${sql.today.toFixed(1)} ms, last page ${sql.deep.toFixed(1)} ms`,
        `    scroll pass top→bottom: ${f.pass.length} frames, median ${median(f.pass).toFixed(1)} ms, p95 ${percentile(f.pass, 95).toFixed(1)} ms, max ${Math.max(...f.pass).toFixed(1)} ms, frames of more than two display frames (over 33.43 ms): ${longFrames(f.pass).length}`,
        `    gentle scroll (80 px/frame): median ${median(f.gentle).toFixed(1)} ms, p95 ${percentile(f.gentle, 95).toFixed(1)} ms, frames of more than two display frames (over 33.43 ms): ${longFrames(f.gentle).length}` +
          ` (idle rAF baseline median ${median(f.idle).toFixed(1)} ms); ${f.rendered} row elements in the DOM`,
      );
      expect(f.rendered).toBeLessThan(100);
    }
  } finally {
    await browser.close();
    await host.stop();
  }
  console.log(lines.join('\n'));
}, 600_000);
