/**
 * The crash windows of the email queue beyond a plain kill, each with real `einvoice queue flush`
 * processes on one database file and checked against what the sandbox itself recorded:
 *
 * - clock jump: two processes flush one outbox and the wall clock of both jumps +1 h at a seeded
 *   instant in the middle of their batches (test/support/preload/clock-jump.cjs: Date jumps,
 *   monotonic timers do not, as with an NTP correction); one of them is often killed afterwards.
 *   The seeded moments count from the run's first request, so they land mid-batch however slow
 *   the machine is to start a process.
 *   Meanwhile the test's own process, its clock jumped as well, plays another start and recovers
 *   what it finds. A live owner's claim is never taken: that recovery takes nothing while both
 *   live, and no process reports that its batch changed under it.
 * - the write that records "unknown" fails: a trigger in the database file refuses every
 *   `sending → unknown` write while the sandbox resets connections after recording the emails; the
 *   claim stays armed, and the next start finds it unknown — never queued, never sent again.
 * - power cut: SIGKILL, then every write the disk was not promised is dropped
 *   (test/support/preload/power-cut.cjs: a copy of the database and its WAL after each commit the
 *   store synced, put back after the kill). With synchronous=FULL the arm commit is on the disk
 *   before its request leaves, so the restart finds the batch armed → unknown. Run with NORMAL the
 *   same seeds send batches twice: no commit is synced then, the claims roll back to `queued`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkInput } from '../../../main/services/emails/input';
import { Outbox } from '../../../main/services/emails/outbox';
import { ProfileService } from '../../../main/services/profiles';
import { startSandbox, type Sandbox } from '../../../main/sandbox';
import { openDatabase, type Store } from '../../../main/services/store';
import { clockJumpRound, crashFigures, CRASH_SEEDS, crashPreloads, cutPower, keepDurableCopy, seededRandom } from '../../support/crash';
import { recordHardening } from '../../support/hardening-report';
import { makeTempDir } from '../../support/temp-dir';
import { buildOnce, cliEnv, runCli, spawnCli, type Run } from './cli-support';
import { sentCounts } from './harness';

const FAULTS = { sendemail: { latencyMs: 80, jitterMs: 80, reset: 0.08, status503: 0.08 } };
const HOUR = 60 * 60_000;
/** Seeds per window: a fifth of the plain crash seeds (at least 3), so the three windows add ~5 minutes to a run. */
const SEEDS = Math.max(3, Math.ceil(CRASH_SEEDS / 5));

let sb: Sandbox;
let tmp: { dir: string; cleanup: () => void };
let pool: readonly string[];

beforeAll(async () => {
  buildOnce();
  tmp = makeTempDir('einvoice-emails-windows-');
  sb = await startSandbox({ port: 0, seed: 11, invoiceCount: 8000, faults: FAULTS });
  pool = sb.catalogue.list('withCode');
}, 300_000);
afterAll(async () => {
  await sb?.close();
  tmp?.cleanup();
});

let taken = 0;
/** Queues `n` fresh invoices of the sandbox (each test its own) and notes them in `mine`. */
function enqueue(outbox: Outbox, mine: Set<string>, n: number): void {
  const ids = pool.slice(taken, (taken += n));
  expect(ids).toHaveLength(n);
  const inputs = ids.map((id) => {
    const r = checkInput({ transactionId: id, receiverEmail: `${id.toLowerCase()}@example.com`, kind: 'withCode' });
    if (!r.ok) throw new Error(r.problem.en);
    mine.add(id);
    return { input: r.value };
  });
  expect(outbox.add('sandbox', inputs).added).toHaveLength(n);
}

/** The invariants against the sandbox's own record: nothing lost, nothing acknowledged twice, every sent entry acknowledged once. */
function check(outbox: Outbox, mine: ReadonlySet<string>) {
  const all = outbox.list('sandbox', { limit: 100_000 }).items.filter((e) => mine.has(e.transactionId));
  expect(all).toHaveLength(mine.size);
  const acked = sentCounts(sb);
  for (const id of mine) expect(acked.get(id) ?? 0, `${id} acknowledged twice`).toBeLessThanOrEqual(1);
  for (const e of all) if (e.state === 'sent' || e.state === 'requested') expect(acked.get(e.transactionId), e.transactionId).toBe(1);
  expect(all.filter((e) => e.state === 'sending')).toHaveLength(0);
  return { all, doubleSends: [...mine].filter((id) => (acked.get(id) ?? 0) > 1).length };
}

const flushArgs = () => ['queue', 'flush', '--batch', '4', '--json', '--base-url', sb.baseUrl];
/** Every entry's state, read without writing (a read-only connection does not checkpoint). */
function states(data: string): string {
  const db = new DatabaseSync(path.join(data, 'einvoice.db'), { readOnly: true });
  try {
    return JSON.stringify(db.prepare('SELECT id, state FROM email_outbox ORDER BY id').all());
  } finally {
    db.close();
  }
}

/** Waits until the sandbox has seen `n` more sendemail requests than `from` (a run started sending). */
async function requestsAfter(from: number, n = 1, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (sb.requests({ op: 'sendemail' }).length < from + n) {
    if (Date.now() > until) throw new Error('no sendemail request arrived');
    await sleep(10);
  }
}
const sendemails = () => sb.requests({ op: 'sendemail' }).length;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const killedBy = (r: Run) => r.signal === 'SIGKILL';

describe('crash windows of the email queue, in real processes', () => {
  it(`clock jump of +1 h in the middle of two processes' batches (${SEEDS} seeds): a live owner's claim is never taken, 0 double sends`, async () => {
    const data = path.join(tmp.dir, 'jump');
    const store = openDatabase(data);
    new ProfileService(store);
    const outbox = new Outbox(store);
    let ahead = 0; // the jumps so far: the machine's clock stays where it jumped to
    const jumpedStart = new Outbox(store, { now: () => Date.now() + ahead });
    const mine = new Set<string>();
    let takenFromLive = 0;
    let jumped = 0;
    let kills = 0;
    let recovered = 0;
    let midRequest = 0;
    try {
      for (let seed = 0; seed < SEEDS; seed++) {
        enqueue(outbox, mine, 40);
        const random = seededRandom(11_000 + seed);
        // Both start on the machine's time so far and jump +1 h together.
        const jumps = crashPreloads({ clock: { aheadMs: ahead, jumpMs: HOUR } });
        const env = cliEnv(data, { EINVOICE_TOKEN: sb.devToken, EINVOICE_DEBUG: '1', ...jumps });
        const from = sendemails();
        // Meanwhile another start on the same machine (this process, its clock jumped too) recovers
        // what it finds: the claims armed before the jump look an hour old, and their owners live.
        const round = await clockJumpRound({
          spawn: () => spawnCli(flushArgs(), env, tmp.dir),
          started: () => requestsAfter(from, 2),
          random,
          onJump: () => (ahead += HOUR),
          recoverElsewhere: () => jumpedStart.recover(),
        });
        takenFromLive += round.takenFromLive;
        jumped += round.jumped;
        kills += round.runs.filter(killedBy).length;
        for (const r of round.runs) {
          // A process that lost a batch it was sending says so; with ownership by process this never happens.
          expect(r.stderr, 'a live process lost its claim').not.toMatch(/changed under this batch/);
        }
        const n = outbox.recover();
        recovered += n;
        if (n > 0) midRequest++;
        check(outbox, mine);
      }
      // The rest goes out on the machine's clock after the jumps (a batch put back by a 503 is due by it).
      const rest = await runCli(flushArgs(), cliEnv(data, { EINVOICE_TOKEN: sb.devToken, ...crashPreloads({ clock: { aheadMs: ahead } }) }), tmp.dir, 120_000);
      expect([0, 1], rest.stderr).toContain(rest.code);
      const { all, doubleSends } = check(outbox, mine);
      expect(doubleSends).toBe(0);
      expect(takenFromLive, 'claims taken from a live owner').toBe(0);
      expect(jumped).toBeGreaterThanOrEqual(SEEDS); // the clock jumped inside running processes
      expect(kills).toBeGreaterThan(0);
      const counts = { unknown: all.filter((e) => e.state === 'unknown').length, queued: all.filter((e) => e.state === 'queued').length };
      recordHardening('crash-emails-clock-jump', {
        ...crashFigures(SEEDS, kills),
        clockJumpSeeds: SEEDS,
        clockJumpTakenFromLive: takenFromLive,
        clockJumpDoubleSends: doubleSends,
      });
      console.log(
        `clock jump: ${SEEDS} seeds, ${jumped} processes jumped +1 h mid-run, ${kills} kills (${midRequest} seeds with a request in flight), ` +
          `${recovered} recovered as unknown after the kills, ${takenFromLive} taken from a live owner, final ${JSON.stringify(counts)}, ${doubleSends} double sends`,
      );
    } finally {
      store.close();
    }
  }, 900_000);

  it(`the write recording "unknown" fails (${SEEDS} seeds): the claim stays armed, the restart finds it unknown, nothing is sent again`, async () => {
    const data = path.join(tmp.dir, 'refused');
    const store = openDatabase(data);
    new ProfileService(store);
    const outbox = new Outbox(store);
    const mine = new Set<string>();
    const env = cliEnv(data, { EINVOICE_TOKEN: sb.devToken, EINVOICE_DEBUG: '1' });
    // More resets after the sandbox recorded the emails: most runs hit an unknown outcome.
    sb.setFaults({ sendemail: { ...FAULTS.sendemail, reset: 0.4 } });
    let refused = 0;
    let leftArmed = 0;
    let kills = 0;
    let recovered = 0;
    try {
      for (let seed = 0; seed < SEEDS; seed++) {
        enqueue(outbox, mine, 24);
        store.db.exec(
          `CREATE TRIGGER refuse_unknown BEFORE UPDATE OF state ON email_outbox WHEN OLD.state = 'sending' AND NEW.state = 'unknown'
           BEGIN SELECT RAISE(ABORT, 'disk I/O error (refused by the test)'); END`,
        );
        const random = seededRandom(12_000 + seed);
        const from = sendemails();
        const run = spawnCli(flushArgs(), env, tmp.dir);
        await requestsAfter(from);
        // Most runs end by themselves (the refused write stops the flush); some are killed later on.
        const timer = setTimeout(() => run.child.kill('SIGKILL'), 300 + Math.floor(random() * 1_500));
        const r = await run.done;
        clearTimeout(timer);
        store.db.exec('DROP TRIGGER refuse_unknown');
        if (killedBy(r)) kills++;
        const hit = r.stderr.includes('refused by the test');
        if (hit) refused++;
        const n = outbox.recover(); // the next start
        recovered += n;
        if (hit && !killedBy(r)) {
          // The process ended on its own after the refused write: its batch was still armed.
          expect(n, r.stderr.slice(-400)).toBeGreaterThan(0);
          leftArmed++;
        }
        check(outbox, mine);
      }
      sb.setFaults(FAULTS);
      const rest = await runCli(flushArgs(), env, tmp.dir, 120_000);
      expect([0, 1], rest.stderr).toContain(rest.code);
      const { all, doubleSends } = check(outbox, mine);
      expect(doubleSends).toBe(0);
      expect(refused).toBeGreaterThanOrEqual(Math.ceil(SEEDS / 3));
      expect(leftArmed).toBeGreaterThan(0);
      const unknown = all.filter((e) => e.state === 'unknown').length;
      recordHardening('crash-emails-unknown-write', {
        ...crashFigures(SEEDS, kills),
        unknownWriteSeeds: SEEDS,
        unknownWritesRefused: refused,
        unknownWriteDoubleSends: doubleSends,
      });
      console.log(
        `unknown write refused: ${SEEDS} seeds, ${refused} runs hit the refused write (${leftArmed} ended with the batch armed), ${kills} kills, ` +
          `${recovered} recovered as unknown, ${unknown} unknown at the end, ${doubleSends} double sends`,
      );
    } finally {
      sb.setFaults(FAULTS);
      store.close();
    }
  }, 900_000);

  it(`power cut: kill -9, then every write not synced is dropped (${SEEDS} seeds): 0 double sends, nothing lost`, async () => {
    const data = path.join(tmp.dir, 'power');
    const copies = path.join(tmp.dir, 'power-durable');
    const mine = new Set<string>();
    const open = () => {
      const store = openDatabase(data);
      new ProfileService(store);
      return { store, outbox: new Outbox(store) };
    };
    const env = cliEnv(data, { EINVOICE_TOKEN: sb.devToken, ...crashPreloads({ durableCopy: copies }) });
    let kills = 0;
    let recovered = 0;
    let midRequest = 0;
    let rolledBack = 0;
    for (let seed = 0; seed < SEEDS; seed++) {
      let side: { store: Store; outbox: Outbox } = open();
      enqueue(side.outbox, mine, 40);
      side.store.close(); // the last connection closes: everything is in the database file
      fs.rmSync(copies, { recursive: true, force: true });
      keepDurableCopy(path.join(data, 'einvoice.db'), copies); // what the disk holds before the run
      const random = seededRandom(13_000 + seed);
      const from = sendemails();
      const { child, done } = spawnCli(flushArgs(), env, tmp.dir);
      await requestsAfter(from);
      await sleep(Math.floor(random() * 400));
      child.kill('SIGKILL');
      const r = await done;
      if (!killedBy(r)) continue; // finished before the cut: nothing to drop
      kills++;
      const killed = states(data);
      cutPower(path.join(data, 'einvoice.db'), copies);
      if (states(data) !== killed) rolledBack++;
      side = open(); // the restart after the power comes back
      try {
        const n = side.outbox.recover();
        recovered += n;
        if (n > 0) midRequest++;
        check(side.outbox, mine);
      } finally {
        side.store.close();
      }
    }
    const rest = await runCli(flushArgs(), cliEnv(data, { EINVOICE_TOKEN: sb.devToken }), tmp.dir, 120_000);
    expect([0, 1], rest.stderr).toContain(rest.code);
    const side = open();
    try {
      const { all, doubleSends } = check(side.outbox, mine);
      expect(doubleSends).toBe(0);
      expect(kills).toBeGreaterThanOrEqual(Math.ceil(SEEDS * 0.8));
      expect(recovered).toBeGreaterThan(0); // some cuts landed while a request was in flight
      const states = all.reduce<Record<string, number>>((m, e) => ({ ...m, [e.state]: (m[e.state] ?? 0) + 1 }), {});
      recordHardening('crash-emails-power-cut', { ...crashFigures(SEEDS, kills), powerCutSeeds: SEEDS, powerCutDoubleSends: doubleSends });
      console.log(
        `power cut: ${SEEDS} seeds, ${kills} cuts (${midRequest} with a request in flight, ${rolledBack} where dropping the un-synced writes changed a state), ` +
          `${recovered} recovered as unknown, final ${JSON.stringify(states)}, ${doubleSends} double sends`,
      );
    } finally {
      side.store.close();
    }
  }, 900_000);
});
