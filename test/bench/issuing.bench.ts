/**
 * The issue queue at scale, at 500 and 2 500 invoices per round (each size on a queue of its own,
 * so the growth shows), over 5 series, 0 ms gap between requests of a series,
 * issued against the sandbox (in its own process) by the real IssuingService (claim + arm in one
 * transaction, ApiClient.issue, per-item judging, settle + the kept exchange in one transaction,
 * the series run in parallel, 30 invoices per request) versus raw undici requests with the same
 * batches in the same order (the 5 series in parallel, each sequential; the envelope and
 * publishInvoiceResult parsed). Arms alternate over several rounds; every round issues new RefIDs.
 * Acceptance: ours / raw throughput ≥ 0.9 at 50 ms latency at each size; the other latencies'
 * ratios and the local bookkeeping per invoice (claim + settle transactions) are printed.
 * `ISSUING_SIZES=a,b` runs other sizes.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Agent } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../common/calls/settings';
import { emptyDraft, emptyLine, issuingForm } from '../../common/money';
import type { IssuingInvoiceData, SignType } from '../../common/model/issuing';
import { vietnamToday } from '../../common/rules';
import type { SignedInSession } from '../../main/services/auth';
import { DraftsRepository } from '../../main/services/drafts/repository';
import { IssuingService } from '../../main/services/issuing';
import { ProfileService } from '../../main/services/profiles';
import { openDatabase } from '../../main/services/store';
import { startSandboxProcess, type SandboxProcess } from '../support/sandbox-process';
import { benchSizes } from '../support/bench-sizes';
import { median } from '../support/stats';

const SIZES = benchSizes('ISSUING_SIZES', [500, 2_500]);
const ROUNDS = 5;
const BATCH = 30;
/** Loopback, a fast nearby service, and the latency the ratio is judged at (signing makes real issue answers slower still). */
const LATENCIES = [0, 20, 50];
const JUDGED_LATENCY_MS = 50;
const SERIES: ReadonlyArray<{ series: string; kind: 'withCode' | 'withoutCode' | 'cashRegister'; signType: SignType }> = [
  { series: '1C26TAA', kind: 'withCode', signType: 2 },
  { series: '2C26TBB', kind: 'withCode', signType: 2 },
  { series: '1K26TAA', kind: 'withoutCode', signType: 2 },
  { series: '1K26TDL', kind: 'withoutCode', signType: 2 },
  { series: '1C26MAA', kind: 'cashRegister', signType: 5 },
];
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'einvoice-issuing-bench-'));

let sb: SandboxProcess;
let cert: string;

beforeAll(async () => {
  sb = await startSandboxProcess({ seed: 5, invoiceCount: 2000 }, work);
  cert = ((await (await fetch(`${sb.origin}/__sandbox/state`)).json()) as { certificateSN: string }).certificateSN;
}, 120_000);

afterAll(() => {
  sb?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

/** One round's invoices: count new RefIDs spread over the series, in queue order. */
function invoices(count: number): Array<{ s: (typeof SERIES)[number]; data: IssuingInvoiceData }> {
  const today = vietnamToday(new Date());
  return Array.from({ length: count }, (_, i) => {
    const s = SERIES[i % SERIES.length]!;
    const draft = emptyDraft({
      RefID: randomUUID(),
      InvSeries: s.series,
      InvDate: today,
      InvoiceName: 'Hóa đơn giá trị gia tăng',
      PaymentMethodName: 'TM/CK',
      BuyerLegalName: `Công ty TNHH Khách ${i}`,
      BuyerTaxCode: '0101243150',
      BuyerAddress: 'Số 5 Thụy Khuê, Hà Nội',
      lines: [{ ...emptyLine(1), ItemName: 'Cà phê rang xay', UnitName: 'gói', Quantity: String(1 + (i % 7)), UnitPrice: '185000', VATRateName: '10%' }],
    });
    return { s, data: issuingForm(draft).data };
  });
}

interface SizeFigures {
  count: number;
  lines: string[];
  phases: Array<{ latency: number; ours: number[]; raw: number[]; ratio: number; perInvoice: number }>;
}

/** The sandbox answers issue requests after `ms` (0: at once). */
async function setLatency(ms: number): Promise<void> {
  const res = await fetch(`${sb.origin}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ms > 0 ? { issue: { latencyMs: ms } } : {}),
  });
  expect(res.ok).toBe(true);
}

/** Issues rounds of `count` new invoices on a queue of their own, at each latency; ours vs raw. */
async function measureSize(count: number): Promise<SizeFigures> {
  // Every size warms up on loopback, as the first does.
  await setLatency(0);
  const store = openDatabase(path.join(work, `data-${count}`));
  new ProfileService(store);
  const agentOptions = { keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000, connections: 16 } as const;
  const ourAgent = new Agent(agentOptions);
  const rawAgent = new Agent(agentOptions);
  const session = { profile: { id: 'sandbox' }, endpoint: { baseUrl: sb.baseUrl, tokenUrl: null }, token: sb.devToken } as unknown as SignedInSession;
  const settings = { ...DEFAULT_SETTINGS, issuing: { ...DEFAULT_SETTINGS.issuing, seriesGapMs: 0 } };
  const service = new IssuingService({
    store,
    drafts: new DraftsRepository(store),
    settings: () => settings,
    activeProfileId: () => 'sandbox',
    gate: { ready: async () => session, reportAuthFailure: async () => {} },
    dispatcher: ourAgent,
    issueTimeoutMs: 120_000,
  });
  try {
    const { queue } = service;
    let bookkeepingMs = 0;
    for (const name of ['claim', 'settle'] as const) {
      const original = queue[name].bind(queue) as (...a: unknown[]) => unknown;
      (queue as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
        const t = performance.now();
        try {
          return original(...args);
        } finally {
          bookkeepingMs += performance.now() - t;
        }
      };
    }

    const url = new URL(sb.baseUrl);
    const rawRound = async () => {
      const list = invoices(count);
      const lanes = SERIES.map(async (s) => {
        const mine = list.filter((x) => x.s === s).map((x) => x.data);
        let ok = 0;
        for (let i = 0; i < mine.length; i += BATCH) {
          const body = JSON.stringify({
            SignType: s.signType,
            ...(s.signType === 2 ? { CertificateSN: cert } : {}),
            InvoiceData: mine.slice(i, i + BATCH),
            PublishInvoiceData: null,
          });
          const res = await rawAgent.request({
            origin: url.origin,
            path: url.pathname,
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${sb.devToken}` },
            body,
          });
          const env = JSON.parse(await res.body.text()) as { publishInvoiceResult: string };
          const items = JSON.parse(env.publishInvoiceResult) as Array<{ ErrorCode: string; TransactionID: string | null }>;
          ok += items.filter((x) => !x.ErrorCode && x.TransactionID).length;
        }
        return ok;
      });
      return (await Promise.all(lanes)).reduce((a, b) => a + b, 0);
    };
    const enqueueMs: number[] = [];
    const ourRound = async () => {
      const list = invoices(count);
      const t = performance.now();
      store.transaction(() => {
        for (const { s, data } of list) {
          queue.add('sandbox', {
            draftId: null,
            payload: data,
            kind: s.kind,
            signType: s.signType,
            certificateSN: s.signType === 2 ? cert : null,
            buyerName: data.BuyerLegalName ?? '',
            buyerEmail: '',
            total: String(data.TotalAmountOC),
            currency: 'VND',
            download: false,
            email: false,
          });
        }
      });
      enqueueMs.push(performance.now() - t);
      const before = queue.counts('sandbox').issued;
      const started = performance.now();
      await service.runner.kick();
      const ms = performance.now() - started;
      return { ok: queue.counts('sandbox').issued - before, ms };
    };

    // Warm both arms.
    await rawRound();
    await ourRound();
    const compare = async () => {
      bookkeepingMs = 0;
      const ours: number[] = [];
      const raw: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        for (const arm of r % 2 === 0 ? ['raw', 'ours'] : ['ours', 'raw']) {
          if (arm === 'raw') {
            const t = performance.now();
            expect(await rawRound()).toBe(count);
            raw.push(performance.now() - t);
          } else {
            const { ok, ms } = await ourRound();
            expect(ok).toBe(count);
            ours.push(ms);
          }
        }
      }
      return { ours, raw, ratio: median(raw) / median(ours), perInvoice: bookkeepingMs / (ROUNDS * count) };
    };
    const phases: Array<{ latency: number } & Awaited<ReturnType<typeof compare>>> = [];
    for (const latency of LATENCIES) {
      await setLatency(latency);
      phases.push({ latency, ...(await compare()) });
    }
    const synchronous = ['OFF', 'NORMAL', 'FULL', 'EXTRA'][(store.db.prepare('PRAGMA synchronous').get() as { synchronous: number }).synchronous];
    const rows = (store.db.prepare('SELECT count(*) AS n FROM issue_queue').get() as { n: number }).n;
    const lines = [
      `  ${count} invoices per round (PRAGMA synchronous=${synchronous}; ${rows} rows in the queue at the end):`,
      `    enqueue (one transaction): median ${median(enqueueMs).toFixed(0)} ms`,
    ];
    for (const p of phases) {
      lines.push(
        `    service latency ${p.latency} ms per issue request:`,
        `       IssuingService: median ${median(p.ours).toFixed(0)} ms  [${p.ours.map((x) => x.toFixed(0)).join(', ')}]`,
        `       raw undici:     median ${median(p.raw).toFixed(0)} ms  [${p.raw.map((x) => x.toFixed(0)).join(', ')}]`,
        `       throughput ratio ours/raw: ${p.ratio.toFixed(3)}${p.latency === JUDGED_LATENCY_MS ? ' (acceptance ≥ 0.9)' : ' (printed)'}; local bookkeeping ${p.perInvoice.toFixed(3)} ms per invoice`,
      );
    }
    return { count, lines, phases };
  } finally {
    await service.stop();
    await ourAgent.close();
    await rawAgent.close();
    store.close();
  }
}

it(`issues ${SIZES.join(' and ')} invoices over ${SERIES.length} series: the queue vs raw undici (ratio ≥ 0.9 at each size), bookkeeping per invoice`, async () => {
  const figures: SizeFigures[] = [];
  for (const n of SIZES) figures.push(await measureSize(n));
  const small = figures[0]!;
  const big = figures[figures.length - 1]!;
  // The sandbox counts them from its start: every size's.
  const overlaps = ((await (await fetch(`${sb.origin}/__sandbox/state`)).json()) as { overlaps: number }).overlaps;
  const lines = [
    `issuing bench (${SERIES.length} series, ${BATCH} per request, gap 0 ms, ${ROUNDS} alternating rounds per latency, sandbox in its own process)`,
    ...figures.flatMap((f) => f.lines),
    `  overlapping requests on a series seen by the service: ${overlaps}`,
  ];
  if (figures.length > 1) {
    const perInvoice = (f: SizeFigures, latency: number) => median(f.phases.find((p) => p.latency === latency)!.ours) / f.count;
    lines.push(
      `  growth ${big.count / small.count}× invoices, ours' ms per invoice: ${LATENCIES.map((l) => `${l} ms ${(perInvoice(big, l) / perInvoice(small, l)).toFixed(2)}×`).join(', ')}; bookkeeping per invoice ${LATENCIES.map((l) => `${(big.phases.find((p) => p.latency === l)!.perInvoice / small.phases.find((p) => p.latency === l)!.perInvoice).toFixed(2)}×`).join(', ')}`,
    );
  }
  console.log(lines.join('\n'));
  expect(overlaps).toBe(0);
  for (const f of figures) expect(f.phases.find((p) => p.latency === JUDGED_LATENCY_MS)!.ratio, `${f.count} invoices`).toBeGreaterThanOrEqual(0.9);
}, 900_000);
