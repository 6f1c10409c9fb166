import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Crash-consistency runs: each scenario kills a real process with SIGKILL once per
 * seed, at a moment drawn from that seed, and checks its invariants after every kill. 50 seeds
 * per scenario in `npm test`; EINVOICE_CRASH_SEEDS=5 gives a quick local run.
 */
export const CRASH_SEEDS = Math.max(1, Number(process.env.EINVOICE_CRASH_SEEDS ?? 50));

/** The sandbox's seeded PRNG: the same seed gives the same kill moments. */
export { createRng as seededRandom } from '../../main/sandbox/prng';

const PRELOAD = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'preload');

/**
 * The environment that loads the crash preloads into a spawned CLI (tests only; the product reads
 * neither variable): `clockJump` moves the process's wall clock by `offsetMs` when it gets SIGUSR2,
 * or from the start with `now` (preload/clock-jump.cjs); `durableCopy` keeps, after each synced commit, a copy of what the disk
 * holds in that folder for `cutPower` (preload/power-cut.cjs).
 */
export function crashPreloads(options: { clockJump?: { offsetMs: number; now?: boolean }; durableCopy?: string }): Record<string, string> {
  const env: Record<string, string> = {};
  const requires: string[] = [];
  if (options.clockJump) {
    requires.push(path.join(PRELOAD, 'clock-jump.cjs'));
    env.EINVOICE_TEST_CLOCK_JUMP = `${options.clockJump.offsetMs}${options.clockJump.now ? ',now' : ''}`;
  }
  if (options.durableCopy) {
    requires.push(path.join(PRELOAD, 'power-cut.cjs'));
    env.EINVOICE_TEST_DURABLE_COPY = options.durableCopy;
  }
  if (requires.length > 0) env.NODE_OPTIONS = requires.map((r) => `--require ${JSON.stringify(r)}`).join(' ');
  return env;
}

export { cutPower, snapshot as keepDurableCopy } from './preload/power-cut.cjs';
