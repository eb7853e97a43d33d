import { createRng } from '../stats/rng.js';

/** Stratified k-fold assignment: each class is shuffled (seeded) and dealt round-robin, so folds keep the class balance. */
export function stratifiedFolds(y: readonly number[], k: number, seed: number): number[] {
  const rng = createRng(seed);
  const fold = new Array<number>(y.length).fill(0);
  for (const cls of [0, 1]) {
    const idx = y.map((v, i) => (v === cls ? i : -1)).filter((i) => i >= 0);
    for (let i = idx.length - 1; i > 0; i--) {
      const j = Math.floor(rng() * (i + 1));
      [idx[i], idx[j]] = [idx[j]!, idx[i]!];
    }
    idx.forEach((i, r) => (fold[i] = r % k));
  }
  return fold;
}
