import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Crash-consistency runs: each scenario kills a real process with SIGKILL once per
 * seed, at a moment drawn from that seed, and checks its invariants after every kill. 50 seeds
 * per scenario in `npm test`; EINVOICE_CRASH_SEEDS=5 gives a quick local run.
 */
export const CRASH_SEEDS = Math.max(1, Number(process.env.EINVOICE_CRASH_SEEDS ?? 50));

/** The sandbox's seeded PRNG: the same seed gives the same kill moments. */
/** What one crash scenario adds to the hardening figures; record it only once every invariant held. */
export function crashFigures(seeds: number, kills: number): Record<string, number> {
  return { crashSeeds: seeds, crashScenarios: 1, crashKills: kills, crashLosses: 0 };
}

export { createRng as seededRandom } from '../../main/sandbox/prng';

const PRELOAD = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'preload');

/**
 * The environment that loads the crash preloads into a spawned CLI (tests only; the product reads
 * neither variable): `clock` runs the process's wall clock `aheadMs` ahead of the machine's and
 * moves it `jumpMs` further when it gets SIGUSR2 (preload/clock-jump.cjs); `durableCopy` keeps,
 * after each synced commit, a copy of what the disk holds in that folder for `cutPower`
 * (preload/power-cut.cjs).
 */
export function crashPreloads(options: { clock?: { aheadMs: number; jumpMs?: number }; durableCopy?: string }): Record<string, string> {
  const env: Record<string, string> = {};
  const requires: string[] = [];
  if (options.clock) {
    requires.push(path.join(PRELOAD, 'clock-jump.cjs'));
    env.EINVOICE_TEST_CLOCK = `${options.clock.aheadMs},${options.clock.jumpMs ?? 0}`;
  }
  if (options.durableCopy) {
    requires.push(path.join(PRELOAD, 'power-cut.cjs'));
    env.EINVOICE_TEST_DURABLE_COPY = options.durableCopy;
  }
  if (requires.length > 0) env.NODE_OPTIONS = requires.map((r) => `--require ${JSON.stringify(r)}`).join(' ');
  return env;
}

export { cutPower, snapshot as keepDurableCopy } from './preload/power-cut.cjs';

/** Resolves once a process started with `crashPreloads({ clock: { jumpMs } })` listens for SIGUSR2 (before that, the signal would end it). */
export function clockArmed(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stderr!.on('data', (d: Buffer | string) => {
      seen += String(d);
      if (seen.includes('clock-jump: armed')) resolve();
    });
    child.once('exit', () => reject(new Error('the process ended before its clock could jump')));
  });
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One clock-jump round of two flushers on one database: both are started (`spawn`, with the clock
 * preload armed); once they are at work (`started`) and a seeded pause later, the clocks of both
 * jump together; for a seeded while `recoverElsewhere` — another start on the same machine, its
 * clock jumped too — recovers what it finds; then one of them is killed, or neither. Returns both
 * runs and how many claims that other start took (from owners that were all alive).
 */
export async function clockJumpRound<R extends { signal: NodeJS.Signals | null; stderr: string }>(round: {
  spawn: () => { child: ChildProcess; done: Promise<R> };
  started: () => Promise<void>;
  random: () => number;
  /** The machine's clock has just jumped (the other start's clock with it). */
  onJump: () => void;
  recoverElsewhere: () => number;
}): Promise<{ runs: R[]; takenFromLive: number; jumped: number }> {
  const { spawn, started, random, recoverElsewhere } = round;
  const flushers = [spawn(), spawn()];
  await Promise.all(flushers.map((f) => clockArmed(f.child)));
  await started();
  await pause(Math.floor(random() * 400));
  for (const f of flushers) f.child.kill('SIGUSR2');
  round.onJump();
  let takenFromLive = 0;
  const until = Date.now() + 50 + Math.floor(random() * 500);
  while (Date.now() < until) {
    takenFromLive += recoverElsewhere();
    await pause(10);
  }
  if (random() < 0.7) flushers[random() < 0.5 ? 0 : 1]!.child.kill('SIGKILL');
  const runs = await Promise.all(flushers.map((f) => f.done));
  return { runs, takenFromLive, jumped: runs.filter((r) => r.stderr.includes('clock-jump: +')).length };
}
