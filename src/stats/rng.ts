/**
 * Seeded PRNG (mulberry32): 32-bit state, uniform in [0, 1). Every resampling in sqlboard
 * goes through this so that a report re-run with the same seed prints the same intervals.
 */
export function createRng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
