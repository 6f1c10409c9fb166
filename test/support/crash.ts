/**
 * Crash-consistency runs (issue 10): each scenario kills a real process with SIGKILL once per
 * seed, at a moment drawn from that seed, and checks its invariants after every kill. 50 seeds
 * per scenario in `npm test`; EINVOICE_CRASH_SEEDS=5 gives a quick local run.
 */
export const CRASH_SEEDS = Math.max(1, Number(process.env.EINVOICE_CRASH_SEEDS ?? 50));

/** A small seeded PRNG (mulberry32): the same seed gives the same kill moments. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
