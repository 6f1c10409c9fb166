/**
 * The crash windows of the issue queue beyond a plain kill, with real `einvoice issue-queue flush`
 * processes on one database file, checked against what the sandbox itself issued (no RefID issued
 * twice, no draft lost, every record with the sandbox's numbers, none sent again once issued):
 *
 * - clock jump: two processes flush one queue and the wall clock of both jumps +1 h at a seeded
 *   moment of their run (test/support/preload/clock-jump.cjs); meanwhile the test's own process,
 *   its clock jumped too, recovers what it finds. A live owner's claim is never taken.
 * - the write that records "unknown" fails: a trigger in the database file refuses every
 *   `issuing → unknown` write while the sandbox resets connections and answers 500 after issuing;
 *   the claim stays armed, the next start finds it unknown and asks the service by RefID.
 * - power cut: SIGKILL, then every write the disk was not promised is dropped
 *   (test/support/preload/power-cut.cjs, see there): the arm commit is synced before the issue
 *   request leaves, so the restart finds the invoices armed → unknown, never queued again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../main/sandbox';
import { IssueQueue } from '../../../main/services/issuing/queue';
import { clockJumpRound, crashFigures, CRASH_SEEDS, crashPreloads, cutPower, keepDurableCopy, seededRandom } from '../../support/crash';
import { recordHardening } from '../../support/hardening-report';
import { makeTempDir } from '../../support/temp-dir';
import { buildOnce, cliEnv, runCli, spawnCli, type Run } from '../emails/cli-support';
import { checkAgainstSandbox, invoiceData, openQueueSide, SERIES } from './cli-support';

const FAULTS = { issue: { latencyMs: 300, jitterMs: 300, reset: 0.1, late500: 0.05, status503: 0.05 }, status: { latencyMs: 20, jitterMs: 40 } };
const HOUR = 60 * 60_000;
/** Seeds per window: a fifth of the plain crash seeds (at least 3): each run issues for seconds. */
const SEEDS = Math.max(3, Math.ceil(CRASH_SEEDS / 5));
const PER_SEED = 6;

let sb: Sandbox;
let tmp: { dir: string; cleanup: () => void };

beforeAll(() => {
  buildOnce();
  tmp = makeTempDir('einvoice-issuing-windows-');
}, 300_000);
/** Each test its own sandbox: the checks compare everything the sandbox issued with one queue. */
beforeEach(async () => {
  await sb?.close();
  sb = await startSandbox({ port: 0, seed: 17, invoiceCount: 200, faults: FAULTS });
}, 60_000);
afterAll(async () => {
  await sb?.close();
  tmp?.cleanup();
});

type Side = ReturnType<typeof openQueueSide>;
const series = [SERIES.withCode, SERIES.withoutCode];
const flushArgs = () => ['issue-queue', 'flush', '--json', '--base-url', sb.baseUrl];
/** A short settle window: an unknown invoice the sandbox never recorded goes out again within seconds. */
const envFor = (data: string, extra: Record<string, string> = {}) =>
  cliEnv(data, { EINVOICE_TOKEN: sb.devToken, EINVOICE_ISSUE_SETTLE_MS: '1500', EINVOICE_DEBUG: '1', ...extra });
const issueRequests = () => sb.requests({ op: 'issue' }).length;
const killedBy = (r: Run) => r.signal === 'SIGKILL';

/** Waits until the sandbox has seen an issue request more than `from` (the run started issuing). */
async function issuing(from: number, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (issueRequests() <= from) {
    if (Date.now() > until) throw new Error('no issue request arrived');
    await sleep(10);
  }
}

/** Queues `n` drafts on the two series. */
function enqueue(side: Side, n: number, queued: { n: number }): void {
  for (let i = 0; i < n; i++) side.queue(invoiceData({ InvSeries: series[queued.n++ % series.length]! }));
}

/** Runs the queue to the end; then every invoice is issued exactly once, never sent again once the sandbox had it. */
async function finish(side: Side, env: NodeJS.ProcessEnv, total: number): Promise<{ finals: number; doubleIssues: number; resent: number }> {
  let finals = 0;
  for (;;) {
    const c = side.issuing.queue.counts(side.profileId);
    if (c.queued + c.unknown + c.issuing === 0) break;
    expect(finals++, JSON.stringify(c)).toBeLessThan(8);
    const r = await runCli(flushArgs(), env, tmp.dir, 300_000);
    expect([0, 1, 4], r.stderr.slice(-600)).toContain(r.code);
  }
  const { doubleIssues, rows } = checkAgainstSandbox(sb, side, total);
  expect(rows.filter((r) => r.state === 'issued')).toHaveLength(total);
  const resent = side.duplicateAnswers();
  expect(resent).toBe(0);
  return { finals, doubleIssues, resent };
}

describe('crash windows of the issue queue, in real processes', () => {
  it(`clock jump of +1 h in the middle of two flushers' runs (${SEEDS} seeds): a live owner's claim is never taken, no invoice issued twice`, async () => {
    const data = path.join(tmp.dir, 'jump');
    const side = openQueueSide(data);
    let ahead = 0; // the jumps so far: the machine's clock stays where it jumped to
    const jumpedStart = new IssueQueue(side.store, { now: () => new Date(Date.now() + ahead) });
    const queued = { n: 0 };
    let takenFromLive = 0;
    let jumped = 0;
    let kills = 0;
    let recovered = 0;
    try {
      for (let seed = 0; seed < SEEDS; seed++) {
        enqueue(side, PER_SEED, queued);
        const random = seededRandom(21_000 + seed);
        const env = envFor(data, crashPreloads({ clock: { aheadMs: ahead, jumpMs: HOUR } }));
        const from = issueRequests();
        const round = await clockJumpRound({
          spawn: () => spawnCli(flushArgs(), env, tmp.dir),
          started: () => issuing(from),
          random,
          onJump: () => (ahead += HOUR),
          recoverElsewhere: () => jumpedStart.recover(),
        });
        takenFromLive += round.takenFromLive;
        jumped += round.jumped;
        kills += round.runs.filter(killedBy).length;
        recovered += side.issuing.queue.recover();
        checkAgainstSandbox(sb, side, queued.n);
      }
      expect(takenFromLive, 'claims taken from a live owner').toBe(0);
      expect(jumped).toBeGreaterThanOrEqual(SEEDS);
      const { finals, doubleIssues, resent } = await finish(side, envFor(data, crashPreloads({ clock: { aheadMs: ahead } })), queued.n);
      recordHardening('crash-issuing-clock-jump', {
        ...crashFigures(SEEDS, kills),
        issuingClockJumpSeeds: SEEDS,
        issuingClockJumpTakenFromLive: takenFromLive,
        issuingDoubleIssues: doubleIssues,
      });
      console.log(
        `issuing clock jump: ${SEEDS} seeds, ${jumped} processes jumped +1 h mid-run, ${kills} kills, ${recovered} recovered as unknown after the kills, ` +
          `${takenFromLive} taken from a live owner, ${finals} final flushes, ${doubleIssues} double issues, ${resent} resent after issued`,
      );
    } finally {
      side.close();
    }
  }, 900_000);

  it(`the write recording "unknown" fails (${SEEDS} seeds): the claim stays armed, the restart finds it unknown, no invoice issued twice`, async () => {
    const data = path.join(tmp.dir, 'refused');
    const side = openQueueSide(data);
    const env = envFor(data);
    const queued = { n: 0 };
    // More resets and late 500s after the sandbox issued: most runs meet an unknown outcome.
    sb.setFaults({ ...FAULTS, issue: { ...FAULTS.issue, reset: 0.3, late500: 0.15 } });
    let refused = 0;
    let kills = 0;
    let recovered = 0;
    try {
      for (let seed = 0; seed < SEEDS; seed++) {
        enqueue(side, PER_SEED, queued);
        side.store.db.exec(
          `CREATE TRIGGER refuse_unknown BEFORE UPDATE OF state ON issue_queue WHEN OLD.state = 'issuing' AND NEW.state = 'unknown'
           BEGIN SELECT RAISE(ABORT, 'disk I/O error (refused by the test)'); END`,
        );
        const random = seededRandom(22_000 + seed);
        const from = issueRequests();
        const run = spawnCli(flushArgs(), env, tmp.dir);
        await issuing(from);
        const timer = setTimeout(() => run.child.kill('SIGKILL'), 1_000 + Math.floor(random() * 2_500));
        const r = await run.done;
        clearTimeout(timer);
        side.store.db.exec('DROP TRIGGER refuse_unknown');
        if (killedBy(r)) kills++;
        // Answers after the sandbox issued (reset, late 500): each one is an unknown outcome to record.
        const unknownOutcomes = sb
          .requests({ op: 'issue' })
          .slice(from)
          .filter((q) => q.fault === 'reset' || q.fault === 'late500').length;
        const n = side.issuing.queue.recover(); // the next start
        recovered += n;
        if (unknownOutcomes > 0) {
          // Its write of "unknown" was refused: the batch stayed armed until the process ended, and
          // the next start finds it unknown. Had it been put back in the queue, it would have gone out
          // again and the service would have answered DuplicateInvoiceRefID (counted at the end).
          expect(n, `run ${seed}: nothing armed after ${unknownOutcomes} unknown outcomes`).toBeGreaterThan(0);
          refused++;
        }
        checkAgainstSandbox(sb, side, queued.n);
      }
      sb.setFaults(FAULTS);
      expect(refused).toBeGreaterThan(0);
      const { finals, doubleIssues, resent } = await finish(side, env, queued.n);
      recordHardening('crash-issuing-unknown-write', {
        ...crashFigures(SEEDS, kills),
        issuingUnknownWriteSeeds: SEEDS,
        issuingUnknownWritesRefused: refused,
        issuingDoubleIssues: doubleIssues,
      });
      console.log(
        `issuing unknown write refused: ${SEEDS} seeds, ${refused} runs met the refused write (each left its batch armed), ${kills} kills, ` +
          `${recovered} recovered as unknown, ${finals} final flushes, ${doubleIssues} double issues, ${resent} resent after issued`,
      );
    } finally {
      sb.setFaults(FAULTS);
      side.close();
    }
  }, 900_000);

  it(`power cut: kill -9, then every write not synced is dropped (${SEEDS} seeds): no invoice issued twice, no draft lost`, async () => {
    const data = path.join(tmp.dir, 'power');
    const copies = path.join(tmp.dir, 'power-durable');
    const db = path.join(data, 'einvoice.db');
    const env = envFor(data, crashPreloads({ durableCopy: copies }));
    const queued = { n: 0 };
    let kills = 0;
    let recovered = 0;
    let midRequest = 0;
    for (let seed = 0; seed < SEEDS; seed++) {
      let side = openQueueSide(data);
      enqueue(side, PER_SEED, queued);
      side.close(); // the last connection closes: everything is in the database file
      fs.rmSync(copies, { recursive: true, force: true });
      keepDurableCopy(db, copies);
      const random = seededRandom(23_000 + seed);
      const from = issueRequests();
      const { child, done } = spawnCli(flushArgs(), env, tmp.dir);
      await issuing(from);
      await sleep(Math.floor(random() * 1_200));
      child.kill('SIGKILL');
      if (!killedBy(await done)) continue; // finished before the cut: nothing to drop
      kills++;
      cutPower(db, copies);
      side = openQueueSide(data); // the restart after the power comes back
      try {
        const n = side.issuing.queue.recover();
        recovered += n;
        if (n > 0) midRequest++;
        checkAgainstSandbox(sb, side, queued.n);
      } finally {
        side.close();
      }
    }
    const side = openQueueSide(data);
    try {
      expect(kills).toBeGreaterThanOrEqual(Math.ceil(SEEDS * 0.8));
      expect(recovered).toBeGreaterThan(0);
      const { finals, doubleIssues, resent } = await finish(side, envFor(data), queued.n);
      recordHardening('crash-issuing-power-cut', { ...crashFigures(SEEDS, kills), issuingPowerCutSeeds: SEEDS, issuingDoubleIssues: doubleIssues });
      console.log(
        `issuing power cut: ${SEEDS} seeds, ${kills} cuts (${midRequest} with a request in flight), ${recovered} recovered as unknown, ` +
          `${finals} final flushes, ${doubleIssues} double issues, ${resent} resent after issued`,
      );
    } finally {
      side.close();
    }
  }, 900_000);
});
