/**
 * BIRD's efficiency metrics, from repeated timings of an EX-correct prediction and its gold
 * (written from the official protocol, not copied):
 *  - each repetition times the prediction, then the gold, and keeps the ratio gold / prediction;
 *  - ratios outside mean ± 3σ (population σ, strict bounds) are dropped, the rest averaged;
 *  - VES (original BIRD evaluation_ves.py): the item scores √ratio;
 *  - R-VES (mini-dev): the ratio falls in a reward bucket — ≥ 2 → 1.25, [1, 2) → 1,
 *    [0.5, 1) → 0.75, [0.25, 0.5) → 0.5, below → 0.25 — and the item scores √reward (the
 *    official code takes the square root of the reward too, although its documentation
 *    describes the reward itself);
 *  - an EX-wrong item, an error or a timeout scores 0; the system's score is the mean × 100.
 * Odd but official: if every ratio is identical, σ = 0 drops them all and the official code
 * divides by zero (the item errors and scores 0); the same happens here.
 */

/** Ratios kept by the official outlier rule (mean ± 3 population standard deviations, strict). */
export function keptRatios(ratios: readonly number[]): number[] {
  const n = ratios.length;
  if (n === 0) return [];
  const mean = ratios.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(ratios.reduce((a, b) => a + (b - mean) ** 2, 0) / n);
  return ratios.filter((x) => x < mean + 3 * sd && x > mean - 3 * sd);
}

/** Mean of the kept ratios; 0 when none is kept (the official division by zero scores 0). */
export function timeRatio(ratios: readonly number[]): number {
  const kept = keptRatios(ratios);
  return kept.length === 0 ? 0 : kept.reduce((a, b) => a + b, 0) / kept.length;
}

/** mini-dev's reward bucket of a time ratio (0 for 0: no timing, i.e. EX-wrong). */
export function rVesReward(ratio: number): number {
  if (ratio === 0) return 0;
  if (ratio >= 2) return 1.25;
  if (ratio >= 1) return 1;
  if (ratio >= 0.5) return 0.75;
  if (ratio >= 0.25) return 0.5;
  return 0.25;
}

export interface VesTiming {
  /** Repetitions timed. */
  reps: number;
  /** gold ms / prediction ms per repetition. */
  ratios: number[];
  /** How many the outlier rule kept. */
  kept: number;
  ratio: number;
  /** √ratio (original BIRD VES). */
  ves: number;
  reward: number;
  /** √reward (mini-dev R-VES). */
  rVes: number;
}

export function vesFromRatios(ratios: readonly number[]): VesTiming {
  const ratio = timeRatio(ratios);
  const reward = rVesReward(ratio);
  return { reps: ratios.length, ratios: [...ratios], kept: keptRatios(ratios).length, ratio, ves: Math.sqrt(ratio), reward, rVes: Math.sqrt(reward) };
}

/** Spread of the measurement over a system's timed items. */
export interface VesSpread {
  /** Items timed (EX-correct with a prediction). */
  timed: number;
  reps: number;
  /** Items whose timing failed or ran out of time (scored 0). */
  failed: number;
  /** Median over timed items of the ratios' coefficient of variation (sd / mean, before outlier removal). */
  medianCv: number;
  /** Ratios dropped by the outlier rule, over all ratios. */
  droppedShare: number;
}

/** A monotonic clock in milliseconds; tests inject a scripted one. */
export type Clock = () => number;

/**
 * Times `reps` repetitions of prediction then gold with `run` (which executes one query and
 * throws on failure), one query at a time, and scores them.
 */
export function timePair(run: (sql: string) => void, predSql: string, goldSql: string, reps: number, clock: Clock): VesTiming {
  const ratios: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t0 = clock();
    run(predSql);
    const t1 = clock();
    run(goldSql);
    const t2 = clock();
    // Python's ZeroDivisionError: the official item scores 0.
    if (t1 === t0) throw new Error('division by zero: the prediction took no measurable time');
    ratios.push((t2 - t1) / (t1 - t0));
  }
  return vesFromRatios(ratios);
}
