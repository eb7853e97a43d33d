export interface RankRange {
  low: number;
  high: number;
}

/**
 * Range of each system's rank over bootstrap resamples of tasks: `resampled[s][r]` is system s's
 * correct count in resample r (resampleCounts: the same draws for every system, so a resample
 * is "another benchmark of this size", and the same draws as the pairwise intervals). Systems
 * are ranked by correct count (ties share the best rank) and the central `confidence` share of
 * each system's ranks is reported as [low, high] (order statistics, so the ends are ranks that
 * actually occurred). No resamples (no tasks) → every range is [1, number of systems].
 */
export function rankRanges(resampled: readonly Uint32Array[], confidence = 0.95): RankRange[] {
  const s = resampled.length;
  const iterations = resampled[0]?.length ?? 0;
  if (iterations === 0) return resampled.map(() => ({ low: 1, high: s }));
  const ranks = resampled.map(() => new Uint16Array(iterations));
  for (let r = 0; r < iterations; r++) {
    for (let k = 0; k < s; k++) {
      let better = 0;
      for (let j = 0; j < s; j++) if (resampled[j]![r]! > resampled[k]![r]!) better++;
      ranks[k]![r] = better + 1;
    }
  }
  const alpha = 1 - confidence;
  return ranks.map((rs) => {
    const sorted = Array.from(rs).sort((a, b) => a - b);
    return {
      low: sorted[Math.floor((alpha / 2) * (iterations - 1))]!,
      high: sorted[Math.ceil((1 - alpha / 2) * (iterations - 1))]!,
    };
  });
}
