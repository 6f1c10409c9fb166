/**
 * Downloads at scale: `einvoice download --type xml --json` for jobs of 1 000 and 100 000 IDs
 * against the sandbox in its own process (one-line invoices: a short XML each), every run a
 * process of its own so its peak RSS is its own. Per run: the time from process start to the
 * first Download call (reading the IDs, creating the job), from there to the exit (the
 * downloads), peak RSS. Then a 100 000-ID job killed (SIGKILL) once half its items were written
 * to its streamed --json, and the same command run again: the time from its process start to
 * its first new Download call.
 * Every run is started the way the `einvoice` launcher starts the CLI (bin/einvoice.cjs: its
 * environment settings and Node options); with EINVOICE_BENCH_DOWNLOADS_PLAIN=1 the large job runs
 * once more without them, for the trade-off (time per ID and peak RSS) they make.
 * Goals: time per ID (100 000) / time per ID (1 000) ≤ 1.2 (asserted); peak RSS (100 000) ≤ peak
 * RSS (1 000) + 64 MB (asserted); the resumed job's first new call < 1 s after its process starts
 * (asserted).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandboxProcess, type SandboxProcess } from '../support/sandbox-process';
import { cliHarness, firstDownloadAfter, launcherStart, lastRequestSeq, type CliHarness, type CliRun } from './downloads-cli';
import { median } from '../support/stats';

const SMALL = 1_000;
/** `EINVOICE_BENCH_DOWNLOADS_LARGE` lowers it for a quick local run (the figures then say so). */
const LARGE = Number(process.env.EINVOICE_BENCH_DOWNLOADS_LARGE ?? 100_000);
const SMALL_RUNS = 3;
const PLAIN = process.env.EINVOICE_BENCH_DOWNLOADS_PLAIN === '1';

interface Measured {
  n: number;
  run: CliRun;
  /** Process start → first Download call; that call → exit; the whole process. */
  setupMs: number;
  downloadMs: number;
  wallMs: number;
  rssMb: number;
}

const launcherLine = (root: string) => {
  const { env, nodeOptions } = launcherStart(root);
  return [...Object.entries(env).map(([k, v]) => `${k}=${v}`), 'node', ...nodeOptions].join(' ');
};

export function scaleBench(root: string): void {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'einvoice-downloads-scale-'));
  let sb: SandboxProcess;
  let cli: CliHarness;
  let ids: string[];
  let runs = 0;

  beforeAll(async () => {
    const t0 = performance.now();
    // About 60 % of the catalogue is invoices with a code: enough for the large job and the small ones apart.
    sb = await startSandboxProcess(
      { seed: 11, invoiceCount: Math.ceil(((LARGE + SMALL * SMALL_RUNS) * 1.7) / 1000) * 1000, briefInvoices: true, cacheMb: 16 },
      work,
    );
    const res = await fetch(`${sb.origin}/__sandbox/invoices?kind=withCode&limit=${LARGE + SMALL * SMALL_RUNS}`);
    ids = ((await res.json()) as { ids: string[] }).ids;
    expect(ids).toHaveLength(LARGE + SMALL * SMALL_RUNS);
    cli = await cliHarness(root, work, { EINVOICE_TOKEN: sb.devToken });
    console.log(`scale: sandbox with ${LARGE + SMALL * SMALL_RUNS} one-line invoices with a code ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }, 600_000);

  afterAll(() => {
    sb?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  const args = (idsFile: string, name: string) => {
    const dir = path.join(work, name);
    return {
      out: path.join(dir, 'out'),
      argv: [
        'download',
        '--type',
        'xml',
        '--with-code',
        '--json',
        '--out',
        path.join(dir, 'out'),
        '--ids-file',
        idsFile,
        '--base-url',
        sb.baseUrl,
        '--data-dir',
        path.join(dir, 'data'),
      ],
    };
  };
  const idsFile = (list: readonly string[]) => {
    const file = path.join(work, `ids-${runs++}.txt`);
    fs.writeFileSync(file, `${list.join('\n')}\n`);
    return file;
  };

  async function measure(n: number, argv: string[], plain = false): Promise<Measured> {
    const before = await lastRequestSeq(sb.origin);
    const run = await cli.run(argv, { plain });
    expect(run.code, run.stderr).toBe(0);
    expect(run.report?.items).toHaveLength(n);
    expect(run.report).toMatchObject({ saved: n, failed: 0, skipped: 0 });
    const first = await firstDownloadAfter(sb.origin, before);
    expect(first).not.toBeNull();
    return {
      n,
      run,
      setupMs: first!.at - run.startedAt,
      downloadMs: run.exitedAt! - first!.at,
      wallMs: run.exitedAt! - run.startedAt,
      rssMb: run.maxRssKb! / 1024,
    };
  }

  it('1 000 vs 100 000 IDs: time per ID ratio ≤ 1.2, peak RSS within 64 MB, resume of a job killed at 50 % < 1 s', async () => {
    const small: Measured[] = [];
    for (let r = 0; r < SMALL_RUNS; r++) {
      const list = ids.slice(LARGE + r * SMALL, LARGE + (r + 1) * SMALL);
      small.push(await measure(SMALL, args(idsFile(list), `small-${r}`).argv));
    }
    const largeIds = idsFile(ids.slice(0, LARGE));
    const large = await measure(LARGE, args(largeIds, 'large').argv);
    const plain = PLAIN ? await measure(LARGE, args(largeIds, 'large-plain').argv, true) : null;

    // The same job killed half-way, then the same command again.
    const resumeArgs = args(largeIds, 'resume');
    const killed = await cli.run(resumeArgs.argv, { killAfterItems: LARGE / 2 });
    expect(killed.signal).toBe('SIGKILL');
    const before = await lastRequestSeq(sb.origin);
    const resumed = await cli.run(resumeArgs.argv);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/Continuing the unfinished job/);
    expect(resumed.report).toMatchObject({ saved: LARGE, failed: 0, skipped: 0 });
    expect(fs.readdirSync(resumeArgs.out).filter((f) => f.endsWith('.xml'))).toHaveLength(LARGE);
    const first = await firstDownloadAfter(sb.origin, before);
    const calls = (await lastRequestSeq(sb.origin)) - before;
    const resumeMs = first!.at - resumed.startedAt;

    const perId = (m: Measured, ms: number) => (ms / m.n) * 1000;
    const smallWall = median(small.map((m) => perId(m, m.wallMs)));
    const smallDownload = median(small.map((m) => perId(m, m.downloadMs)));
    const smallSetup = median(small.map((m) => m.setupMs));
    const smallRss = Math.max(...small.map((m) => m.rssMb));
    const ratio = perId(large, large.downloadMs) / smallDownload;
    const wallRatio = perId(large, large.wallMs) / smallWall;
    const fmt = (us: number) => `${us.toFixed(1)} µs`;
    console.log(
      [
        `downloads scale bench: Xml (one-line invoices), ${SMALL} IDs × ${SMALL_RUNS} runs, then ${LARGE} IDs; each run a CLI process started as bin/einvoice.cjs starts it (${launcherLine(root)})`,
        `  ${SMALL} IDs : per ID ${fmt(smallDownload)} downloading (median), ${fmt(smallWall)} whole process; setup ${smallSetup.toFixed(0)} ms; runs ${small.map((m) => `${m.wallMs.toFixed(0)} ms/${m.rssMb.toFixed(0)} MB`).join(', ')}; peak RSS ${smallRss.toFixed(1)} MB`,
        `  ${LARGE} IDs: per ID ${fmt(perId(large, large.downloadMs))} downloading, ${fmt(perId(large, large.wallMs))} whole process; setup ${large.setupMs.toFixed(0)} ms; wall ${(large.wallMs / 1000).toFixed(1)} s; peak RSS ${large.rssMb.toFixed(1)} MB`,
        `  time per ID ratio ${LARGE}/${SMALL} = ${ratio.toFixed(3)} downloading (must be ≤ 1.2); whole process ${wallRatio.toFixed(3)}`,
        `  peak RSS ${LARGE} − ${SMALL} = ${(large.rssMb - smallRss).toFixed(1)} MB (must be ≤ 64 MB)`,
        ...(plain
          ? [
              `  started without the launcher's settings, ${LARGE} IDs: per ID ${fmt(perId(plain, plain.downloadMs))} downloading (ratio ${(perId(plain, plain.downloadMs) / smallDownload).toFixed(3)}); wall ${(plain.wallMs / 1000).toFixed(1)} s; peak RSS ${plain.rssMb.toFixed(1)} MB (+${(plain.rssMb - smallRss).toFixed(1)})`,
            ]
          : []),
        `  resume: killed after ${killed.itemsSeen} items streamed; the same command reached its first new Download call ${resumeMs.toFixed(0)} ms after its process started (goal < 1000 ms; a fresh ${SMALL}-ID job took ${smallSetup.toFixed(0)} ms to its first call in this run); ${calls} calls to finish; wall ${((resumed.exitedAt! - resumed.startedAt) / 1000).toFixed(1)} s; peak RSS ${(resumed.maxRssKb! / 1024).toFixed(1)} MB`,
      ].join('\n'),
    );
    expect(ratio).toBeLessThanOrEqual(1.2);
    // Process start included; a fresh job's time to its first call is printed beside it.
    expect(resumeMs).toBeLessThan(1_000);
    expect(large.rssMb - smallRss).toBeLessThanOrEqual(64);
  }, 600_000);
}
