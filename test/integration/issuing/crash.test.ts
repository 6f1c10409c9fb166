import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../main/sandbox';
import { CRASH_SEEDS, seededRandom } from '../../support/crash';
import { recordHardening } from '../../support/hardening-report';
import { makeTempDir } from '../../support/temp-dir';
import { buildOnce, cliEnv, runCli, spawnCli } from '../emails/cli-support';
import { checkAgainstSandbox, invoiceData, openQueueSide, SERIES } from './cli-support';

let sb: Sandbox;
let tmp: { dir: string; cleanup: () => void };
let side: ReturnType<typeof openQueueSide>;

beforeAll(async () => {
  buildOnce();
  tmp = makeTempDir('einvoice-issuing-crash-');
  // Latency after the sandbox recorded the invoices keeps an issue request in flight most of the
  // time, so the kills land mid-request; resets and late 500s (after recording) and 503s (before) too.
  sb = await startSandbox({
    port: 0,
    seed: 5,
    invoiceCount: 500,
    faults: { issue: { latencyMs: 400, jitterMs: 600, reset: 0.1, late500: 0.05, status503: 0.05 }, status: { latencyMs: 20, jitterMs: 40 } },
  });
  side = openQueueSide(`${tmp.dir}/data`);
}, 300_000);
afterAll(async () => {
  side?.close();
  await sb?.close();
  tmp?.cleanup();
});

const TOTAL = 200;

describe('kill -9 during einvoice issue-queue flush, with resets, late 500s and 503s injected', () => {
  it(`${CRASH_SEEDS} seeded kills while ${TOTAL} drafts are issued: no RefID issued twice, no draft lost, every record matches the sandbox`, async () => {
    const perSeed = Math.ceil(TOTAL / CRASH_SEEDS);
    const series = [SERIES.withCode, SERIES.withoutCode];
    // A short settle window: an unknown invoice the sandbox never recorded goes out again within seconds.
    const env = cliEnv(`${tmp.dir}/data`, { EINVOICE_TOKEN: sb.devToken, EINVOICE_ISSUE_SETTLE_MS: '1500' });
    const flush = ['issue-queue', 'flush', '--json', '--base-url', sb.baseUrl];
    let queued = 0;
    let kills = 0;
    let recovered = 0;
    let midRequest = 0;
    for (let seed = 0; seed < CRASH_SEEDS; seed++) {
      for (let i = 0; i < perSeed && queued < TOTAL; i++) side.queue(invoiceData({ InvSeries: series[queued++ % series.length]! }));
      const random = seededRandom(7000 + seed);
      const { child, done } = spawnCli(flush, env, tmp.dir);
      await sleep(250 + Math.floor(random() * 1200));
      const killed = child.kill('SIGKILL');
      const r = await done;
      if (killed && r.signal === 'SIGKILL') kills++;
      // What the next start (the app or the CLI) does first: the dead process's claims become unknown.
      const n = side.issuing.queue.recover();
      recovered += n;
      if (n > 0) midRequest++;
      checkAgainstSandbox(sb, side, queued);
    }
    expect(queued).toBe(TOTAL);
    expect(kills).toBeGreaterThanOrEqual(Math.ceil(CRASH_SEEDS * 0.8));
    expect(recovered).toBeGreaterThan(0); // some kills landed while a request was in flight

    // The queue run to the end: every invoice issued exactly once, with the sandbox's numbers.
    let finals = 0;
    for (;;) {
      const c = side.issuing.queue.counts(side.profileId);
      if (c.queued + c.unknown + c.issuing === 0) break;
      expect(finals++, JSON.stringify(c)).toBeLessThan(8);
      const r = await runCli(flush, env, tmp.dir, 300_000);
      expect([0, 1, 4], r.stderr).toContain(r.code);
    }
    const { doubleIssues, rows } = checkAgainstSandbox(sb, side, TOTAL);
    expect(rows.filter((r) => r.state === 'issued')).toHaveLength(TOTAL);
    const mine = new Set(rows.map((r) => r.refId));
    expect(sb.issued().filter((i) => mine.has(i.RefID))).toHaveLength(TOTAL);
    // Stronger than "recorded once": an unknown invoice was never sent again after the sandbox had it.
    const resentIssued = side.duplicateAnswers();
    expect(resentIssued).toBe(0);
    const faults = sb.requests({ op: 'issue' }).filter((q) => q.fault).length;
    recordHardening('crash-issuing', {
      crashSeeds: CRASH_SEEDS,
      crashKills: kills,
      crashScenarios: 1,
      crashLosses: 0,
      issuingRecoveredUnknown: recovered,
      issuingKillsMidRequest: midRequest,
      issuingDoubleIssues: doubleIssues,
      issuingResentAfterIssued: resentIssued,
      issuingFaultsInjected: faults,
    });
    console.log(
      `issuing crash test: ${kills} kills (${midRequest} mid-request), ${recovered} invoices recovered as unknown, ${faults} faults injected, ` +
        `${finals} final flushes, ${doubleIssues} double issues, ${resentIssued} resent after issued`,
    );
  }, 900_000);
});
