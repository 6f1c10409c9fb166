/**
 * Bulk download: 2 000 Pdf invoices of about 100 KB each from the sandbox (pdfPadKb),
 * the real engine (DownloadsService: jobs in SQLite, ApiClient, temp file + fsync + rename,
 * outcomes committed per batch) versus a plain undici baseline with the same batches (50) and
 * concurrency (4) writing the same files. Each arm runs in its own child process so its peak
 * memory (process.resourceUsage().maxRSS) is its own; the sandbox runs in a third process with
 * its PDFs pre-rendered. The arms alternate over ROUNDS rounds (ABBA order); the throughput ratio
 * is the median of the per-round ratios (robust to load drifting on a shared machine); the
 * medians of each arm are printed too.
 * Acceptance: engine/baseline throughput ≥ 0.9; engine peak RSS ≤ baseline peak RSS + 64 MB.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleForNode } from '../support/bundle';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxProcess, type SandboxProcess } from '../support/sandbox-process';
import { scaleBench } from './downloads-scale';
import { median } from '../support/stats';

const COUNT = 2_000;
const BATCH = 50;
const CONCURRENCY = 4;
const ROUNDS = 5;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'einvoice-downloads-bench-'));

describe('2 000 Pdf: engine vs plain undici', () => {
  let sb: SandboxProcess;
  let ids: string[];
  let childBundle: string;

  beforeAll(async () => {
    sb = await startSandboxProcess({ seed: 9, invoiceCount: 3600, pdfPadKb: 100, cacheMb: 512 }, work);
    childBundle = path.join(work, 'child.cjs');
    await bundleForNode(path.join(root, 'test', 'bench', 'downloads-child.ts'), childBundle);
    const res = await fetch(`${sb.origin}/__sandbox/invoices?kind=withCode&limit=${COUNT}`);
    ids = ((await res.json()) as { ids: string[] }).ids;
    expect(ids).toHaveLength(COUNT);
    const t0 = performance.now();
    const warm = await fetch(`${sb.origin}/__sandbox/warm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ids, type: 'Pdf' }),
    });
    expect(warm.status).toBeLessThan(300);
    console.log(`sandbox: ${COUNT} PDFs pre-rendered in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }, 600_000);

  afterAll(() => {
    sb?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  interface ArmResult {
    mode: string;
    ms: number;
    bytes: number;
    files: number;
    maxRssKb: number;
  }

  function arm(mode: 'engine' | 'baseline', round: number): ArmResult {
    const dir = path.join(work, `${mode}-${round}`);
    const config = path.join(work, `${mode}-${round}.json`);
    fs.writeFileSync(
      config,
      JSON.stringify({
        baseUrl: sb.baseUrl,
        token: sb.devToken,
        ids,
        out: path.join(dir, 'out'),
        dataDir: path.join(dir, 'data'),
        batch: BATCH,
        concurrency: CONCURRENCY,
      }),
    );
    const out = execFileSync(process.execPath, [childBundle, mode, config], { encoding: 'utf8', maxBuffer: 1 << 20 });
    fs.rmSync(dir, { recursive: true, force: true });
    return JSON.parse(out.trim()) as ArmResult;
  }

  it('2 000 × ~100 KB Pdf: engine vs plain undici — throughput ratio ≥ 0.9, peak RSS within 64 MB', () => {
    // One untimed pass each to settle the sandbox and the disk cache.
    arm('baseline', -1);
    arm('engine', -1);
    const engine: ArmResult[] = [];
    const baseline: ArmResult[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      if (r % 2 === 0) {
        engine.push(arm('engine', r));
        baseline.push(arm('baseline', r));
      } else {
        baseline.push(arm('baseline', r));
        engine.push(arm('engine', r));
      }
    }
    for (const x of [...engine, ...baseline]) expect(x.files).toBe(COUNT);
    const mb = (kb: number) => kb / 1024;
    const eMs = median(engine.map((x) => x.ms));
    const bMs = median(baseline.map((x) => x.ms));
    const bytes = engine[0]!.bytes;
    const eThroughput = COUNT / (eMs / 1000);
    const bThroughput = COUNT / (bMs / 1000);
    const roundRatios = engine.map((e, i) => baseline[i]!.ms / e.ms);
    const ratio = median(roundRatios);
    const eRss = Math.max(...engine.map((x) => x.maxRssKb));
    const bRss = Math.max(...baseline.map((x) => x.maxRssKb));
    console.log(
      [
        `downloads bench: ${COUNT} Pdf invoices, ${(bytes / COUNT / 1024).toFixed(0)} KB each (${(bytes / 1048576).toFixed(0)} MB), batches of ${BATCH}, ${CONCURRENCY} in flight, ${ROUNDS} rounds`,
        `  engine   : median ${eMs.toFixed(0)} ms → ${eThroughput.toFixed(0)} invoices/s, ${(bytes / 1048576 / (eMs / 1000)).toFixed(1)} MB/s; runs ${engine.map((x) => x.ms.toFixed(0)).join(', ')} ms; peak RSS ${mb(eRss).toFixed(1)} MB`,
        `  baseline : median ${bMs.toFixed(0)} ms → ${bThroughput.toFixed(0)} invoices/s, ${(bytes / 1048576 / (bMs / 1000)).toFixed(1)} MB/s; runs ${baseline.map((x) => x.ms.toFixed(0)).join(', ')} ms; peak RSS ${mb(bRss).toFixed(1)} MB`,
        `  throughput ratio engine/baseline = ${ratio.toFixed(3)} (median of rounds ${roundRatios.map((r) => r.toFixed(2)).join(', ')}; ratio of medians ${(eThroughput / bThroughput).toFixed(3)}) (must be ≥ 0.9)`,
        `  peak RSS engine − baseline = ${(mb(eRss) - mb(bRss)).toFixed(1)} MB (must be ≤ 64 MB)`,
      ].join('\n'),
    );
    expect(ratio).toBeGreaterThanOrEqual(0.9);
    expect(mb(eRss) - mb(bRss)).toBeLessThanOrEqual(64);
  }, 600_000);
});

describe('1 000 vs 100 000 Xml through the CLI: time per ID, peak RSS, resume', () => {
  scaleBench(root);
});
