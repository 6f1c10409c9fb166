/**
 * Crash-consistency runs: each scenario kills a real process with SIGKILL once per
 * seed, at a moment drawn from that seed, and checks its invariants after every kill. 50 seeds
 * per scenario in `npm test`; EINVOICE_CRASH_SEEDS=5 gives a quick local run.
 */
export const CRASH_SEEDS = Math.max(1, Number(process.env.EINVOICE_CRASH_SEEDS ?? 50));

/** The sandbox's seeded PRNG: the same seed gives the same kill moments. */
export { createRng as seededRandom } from '../../main/sandbox/prng';
