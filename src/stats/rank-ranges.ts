import { createRng } from './rng.js';

export interface RankRange {
  low: number;
  high: number;
}

/**
 * Range of each system's rank over bootstrap resamples of tasks: tasks are drawn with
 * replacement (the same draws for every system, so a resample is "another benchmark of this
 * size"), systems are ranked by correct count (ties share the best rank), and the central
 * `confidence` share of each system's ranks is reported as [low, high] (order statistics, so
 * the ends are ranks that actually occurred). The draw sequence matches bootstrapInterval's
 * for the same seed, so rank ranges and pairwise intervals come from the same resamples.
 * No tasks → every range is [1, number of systems].
 */
export function bootstrapRankRanges(
  correct: readonly Uint8Array[],
  opts: { iterations?: number; seed?: number; confidence?: number } = {},
): RankRange[] {
  const iterations = opts.iterations ?? 2000;
  const confidence = opts.confidence ?? 0.95;
  const s = correct.length;
  const n = correct[0]?.length ?? 0;
  if (n === 0) return correct.map(() => ({ low: 1, high: s }));
  const rng = createRng(opts.seed ?? 42);
  const ranks = correct.map(() => new Uint16Array(iterations));
  const idx = new Uint32Array(n);
  const counts = new Uint32Array(s);
  for (let r = 0; r < iterations; r++) {
    for (let i = 0; i < n; i++) idx[i] = Math.floor(rng() * n);
    for (let k = 0; k < s; k++) {
      const row = correct[k]!;
      let c = 0;
      for (let i = 0; i < n; i++) c += row[idx[i]!]!;
      counts[k] = c;
    }
    for (let k = 0; k < s; k++) {
      let better = 0;
      for (let j = 0; j < s; j++) if (counts[j]! > counts[k]!) better++;
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
