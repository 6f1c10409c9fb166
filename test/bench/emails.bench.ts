/**
 * Email queue at scale, at 2 000 and 10 000 entries (each size on a queue of its own, so the
 * growth shows):
 * 1. enqueue the entries from one CSV (parse + check + one transaction) — printed;
 * 2. flush them against the sandbox through the real EmailService versus raw undici requests with
 *    the same batches (same bodies, same keep-alive Agent options, one request at a time, envelope
 *    and JSON-in-string parsed). Ours keeps up to DEFAULT_EMAIL_LANES requests in flight (the first
 *    alone): each lane's answer is settled in the transaction that claims and arms its next batch,
 *    and lanes whose turns come together share that transaction, so one commit (one fsync) serves
 *    several batches (a commit never waits for lanes still out, so the service is kept busy while
 *    we commit); every request still leaves only after its arm is committed; per-item judging.
 *    The arms alternate over several rounds and the medians are compared, with the service
 *    answering in 20 ms and on zero-latency loopback; acceptance: ours / raw throughput ≥ 0.9 with
 *    20 ms latency at each size; the loopback ratio (target ≥ 0.9, not asserted: it moves with the
 *    fsync time of the machine), the time spent in the shared transactions and the batches per
 *    commit are printed;
 * (The queue screen — open, sort, filter and every scroll pass at 10 000 and 100 000 rows — is
 * email-queue.bench.ts.)
 * The sandbox runs in its own process so it does not share the measured event loop (on a busy
 * machine the sender's database work still competes with the sandbox for CPU).
 * `EMAILS_SIZES=a,b` runs other sizes; `EMAILS_LANES=N` sets ours' requests in flight.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandboxProcess, type SandboxProcess } from '../support/sandbox-process';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent } from 'undici';
import type { SignedInSession } from '../../main/services/auth';
import { EmailService } from '../../main/services/emails';
import { DEFAULT_EMAIL_LANES } from '../../main/services/emails/sender';
import { ProfileService } from '../../main/services/profiles';
import { openDatabase } from '../../main/services/store';
import { benchSizes } from '../support/bench-sizes';
import { median } from '../support/stats';

const SIZES = benchSizes('EMAILS_SIZES', [2_000, 10_000]);
const BATCH = 50;
/** Requests in flight of ours (`EMAILS_LANES=N` to compare). */
const LANES = Number(process.env.EMAILS_LANES ?? DEFAULT_EMAIL_LANES);
const ROUNDS = 5;
/** Service latency of the main comparison (ms per sendemail answer). */
const LATENCY_MS = 20;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'einvoice-emails-bench-'));

let sb: SandboxProcess;
let allIds: string[];

beforeAll(async () => {
  if (!fs.existsSync(path.join(root, 'out', 'main', 'browser-host.cjs'))) {
    execFileSync('flock', ['/tmp/build.lock', process.execPath, 'scripts/build.mjs', '--quiet'], { cwd: root, stdio: 'inherit' });
  }
  // A sandbox with enough invoices of one kind, in its own process.
  sb = await startSandboxProcess({ seed: 4, invoiceCount: 32000 }, work);
  const most = Math.max(...SIZES);
  const res = await fetch(`${sb.origin}/__sandbox/invoices?kind=withCode&limit=${most}`);
  allIds = ((await res.json()) as { ids: string[] }).ids;
  expect(allIds).toHaveLength(most);
}, 300_000);

afterAll(async () => {
  sb?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

function csvText(ids: readonly string[]): string {
  const lines = ['TransactionID;ReceiverName;ReceiverEmail;CCEmail;BCCEmail;ReplyEmail'];
  ids.forEach((id, i) =>
    lines.push(
      `${id};Khách hàng số ${i + 1};"khach${i}@example.com, ketoan${i % 97}@example.vn";${i % 5 === 0 ? `cc${i}@example.com` : ''};;lienhe@cuahang.vn`,
    ),
  );
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

interface SizeFigures {
  count: number;
  lines: string[];
  /** Ours / raw throughput with the service answering in LATENCY_MS, and on loopback. */
  ratio: number;
  loopbackRatio: number;
  /** Entries per second of ours: enqueue, flush at LATENCY_MS, flush on loopback. */
  rates: { enqueue: number; flush: number; loopback: number };
}

/** Enqueues `count` entries on a queue of their own and compares the flushes (A, then B). */
async function measureSize(count: number): Promise<SizeFigures> {
  const ids = allIds.slice(0, count);
  const store = openDatabase(path.join(work, `data-${count}`));
  new ProfileService(store);
  const agentOptions = { keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000, connections: 16 } as const;
  const ourAgent = new Agent(agentOptions);
  const rawAgent = new Agent(agentOptions);
  const session = { profile: { id: 'sandbox' }, endpoint: { baseUrl: sb.baseUrl, tokenUrl: null }, token: sb.devToken } as unknown as SignedInSession;
  const emails = new EmailService({
    store,
    activeProfileId: () => 'sandbox',
    gate: { ready: async () => session, reportAuthFailure: async () => {} },
    batchSize: () => BATCH,
    dispatcher: ourAgent,
    sendTimeoutMs: 120_000,
    lanes: LANES,
  });
  try {
    // 1. Enqueue from CSV.
    const text = csvText(ids);
    const t0 = performance.now();
    const imported = await emails.importCsv(text, 'withCode');
    const enqueueMs = performance.now() - t0;
    expect(imported.added).toHaveLength(count);
    expect(imported.rejected).toHaveLength(0);

    // The raw arm: the same batches, bodies as the client sends them.
    const batches: string[] = [];
    for (let i = 0; i < count; i += BATCH) {
      const part = ids.slice(i, i + BATCH).map((id, j) => ({
        TransactionID: id,
        ReceiverName: `Khách hàng số ${i + j + 1}`,
        ReceiverEmail: `khach${i + j}@example.com;ketoan${(i + j) % 97}@example.vn`,
        CCEmail: (i + j) % 5 === 0 ? `cc${i + j}@example.com` : null,
        ReplyEmail: 'lienhe@cuahang.vn',
      }));
      batches.push(JSON.stringify({ SendEmailDatas: part, IsInvoiceCode: true, IsInvoiceCalculatingMachine: false }));
    }
    const url = new URL(sb.baseUrl);
    const rawRound = async () => {
      let ok = 0;
      for (const body of batches) {
        const res = await rawAgent.request({
          origin: url.origin,
          path: `${url.pathname}/sendemail`,
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${sb.devToken}` },
          body,
        });
        const env = JSON.parse(await res.body.text()) as { data: string };
        const items = JSON.parse(env.data) as Array<{ SendEmailStatus: number; ErrorCode: string }>;
        ok += items.filter((x) => (x.SendEmailStatus === 3 || x.SendEmailStatus === 4) && !x.ErrorCode).length;
      }
      return ok;
    };
    const requeue = () =>
      store.db.exec("UPDATE email_outbox SET state = 'queued', attempts = 0, send_email_status = NULL, done_at = NULL, next_attempt_at = 0");
    const ourRound = async () => {
      await emails.flush();
      const c = emails.status().counts;
      return c.sent + c.requested;
    };

    // Warm both connections and the JIT.
    await rawRound();
    await ourRound();
    requeue();

    /** Alternating rounds of both arms; medians in ms. */
    const compare = async (rounds: number) => {
      const ours: number[] = [];
      const raw: number[] = [];
      for (let r = 0; r < rounds; r++) {
        const order = r % 2 === 0 ? ['raw', 'ours'] : ['ours', 'raw'];
        for (const arm of order) {
          const start = performance.now();
          const ok = arm === 'raw' ? await rawRound() : await ourRound();
          const ms = performance.now() - start;
          expect(ok).toBe(count);
          (arm === 'raw' ? raw : ours).push(ms);
          if (arm === 'ours') requeue();
        }
      }
      return { ours, raw, ratio: median(raw) / median(ours) };
    };
    const setLatency = async (ms: number) => {
      const res = await fetch(`${sb.origin}/__sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(ms > 0 ? { sendemail: { latencyMs: ms } } : {}),
      });
      expect(res.ok).toBe(true);
    };
    // A: the service answers in LATENCY_MS (a fast, nearby service; the real one is slower).
    await setLatency(LATENCY_MS);
    const realistic = await compare(ROUNDS);
    // B: loopback with no added latency: the database work per batch is all that differs.
    await setLatency(0);
    const outbox = emails.outbox;
    const together = outbox.together.bind(outbox);
    const claim = outbox.claim.bind(outbox);
    let bookkeepingMs = 0;
    let transactions = 0;
    let claims = 0;
    outbox.together = (fn) => {
      const start = performance.now();
      try {
        together(fn);
      } finally {
        bookkeepingMs += performance.now() - start;
        transactions++;
      }
    };
    outbox.claim = (...args) => {
      const c = claim(...args);
      if (c) claims++;
      return c;
    };
    const loopback = await compare(ROUNDS);
    outbox.together = together;
    outbox.claim = claim;
    const ours = realistic.ours;
    const raw = realistic.raw;

    const oursMs = median(ours);
    const rawMs = median(raw);
    const oursRate = count / (oursMs / 1000);
    const rawRate = count / (rawMs / 1000);
    const ratio = oursRate / rawRate;
    const lbOurs = median(loopback.ours);
    const lbRaw = median(loopback.raw);

    const synchronous = ['OFF', 'NORMAL', 'FULL', 'EXTRA'][(store.db.prepare('PRAGMA synchronous').get() as { synchronous: number }).synchronous];
    const lines = [
      `  ${count} entries (PRAGMA synchronous=${synchronous}):`,
      `  enqueue from CSV: ${enqueueMs.toFixed(0)} ms (${Math.round(count / (enqueueMs / 1000))} entries/s)`,
      `  A) service latency ${LATENCY_MS} ms per sendemail:`,
      `     flush, EmailService: median ${oursMs.toFixed(0)} ms = ${oursRate.toFixed(0)} entries/s  [${ours.map((x) => x.toFixed(0)).join(', ')}]`,
      `     flush, raw undici:   median ${rawMs.toFixed(0)} ms = ${rawRate.toFixed(0)} entries/s  [${raw.map((x) => x.toFixed(0)).join(', ')}]`,
      `     throughput ratio ours/raw: ${ratio.toFixed(3)} (acceptance ≥ 0.9)`,
      `  B) loopback, no added latency (SQLite work per batch vs a sub-ms round trip):`,
      `     flush, EmailService: median ${lbOurs.toFixed(0)} ms = ${(count / (lbOurs / 1000)).toFixed(0)} entries/s  [${loopback.ours.map((x) => x.toFixed(0)).join(', ')}]`,
      `     flush, raw undici:   median ${lbRaw.toFixed(0)} ms = ${(count / (lbRaw / 1000)).toFixed(0)} entries/s  [${loopback.raw.map((x) => x.toFixed(0)).join(', ')}]`,
      `     throughput ratio ours/raw: ${loopback.ratio.toFixed(3)} (target ≥ 0.9, printed); difference ${((lbOurs - lbRaw) / (count / BATCH)).toFixed(2)} ms per batch of ${BATCH}`,
      `     bookkeeping (settles + claims + arms of the lanes in one transaction): ${((bookkeepingMs / transactions) * 1000).toFixed(0)} µs per transaction, ${transactions} transactions for ${claims} batches (${(claims / transactions).toFixed(2)} per commit)`,
    ];
    return {
      count: count,
      lines: [lines[0]!, ...lines.slice(1).map((l) => `  ${l}`)],
      ratio,
      loopbackRatio: loopback.ratio,
      rates: { enqueue: count / (enqueueMs / 1000), flush: oursRate, loopback: count / (lbOurs / 1000) },
    };
  } finally {
    await emails.stop();
    await ourAgent.close();
    await rawAgent.close();
    store.close();
  }
}

it(`enqueues ${SIZES.join(' and ')} from CSV and flushes vs raw undici (ratio ≥ 0.9 at each size)`, async () => {
  const figures: SizeFigures[] = [];
  for (const n of SIZES) figures.push(await measureSize(n));
  const small = figures[0]!;
  const big = figures[figures.length - 1]!;
  const growth = (k: keyof SizeFigures['rates']) => (big.rates[k] / small.rates[k]).toFixed(2);
  console.log(
    [
      `emails bench (batch ${BATCH}, ${ROUNDS} alternating rounds per comparison, sandbox in its own process; ours: up to ${LANES} requests in flight, raw: one)`,
      ...figures.flatMap((f) => f.lines),
      ...(figures.length > 1
        ? [
            `  growth ${big.count / small.count}× entries, ours' entries/s: enqueue ${growth('enqueue')}×, flush at ${LATENCY_MS} ms ${growth('flush')}×, loopback ${growth('loopback')}×; ratio at ${LATENCY_MS} ms ${small.ratio.toFixed(3)} → ${big.ratio.toFixed(3)}, loopback ${small.loopbackRatio.toFixed(3)} → ${big.loopbackRatio.toFixed(3)}`,
          ]
        : []),
    ].join('\n'),
  );
  for (const f of figures) expect(f.ratio, `${f.count} entries`).toBeGreaterThanOrEqual(0.9);
  // The loopback ratio is the target too, but printed only: on a shared machine each commit's
  // fsync ranges from ~1 ms to tens of ms, and no fixed number of lanes covers that.
}, 900_000);
