import { quantileSorted } from 'simple-statistics';
import { confidencePercent, type Interval } from './intervals.js';
import { createRng } from './rng.js';

export interface BootstrapOptions {
  /** Resamples (default 2000). */
  iterations?: number;
  /** PRNG seed (default 42), so reruns print identical intervals. */
  seed?: number;
  /** Two-sided confidence (default 0.95). */
  confidence?: number;
}

function resolve(opts: BootstrapOptions | undefined): { iterations: number; seed: number; confidence: number } {
  const iterations = opts?.iterations ?? 2000;
  const seed = opts?.seed ?? 42;
  const confidence = opts?.confidence ?? 0.95;
  if (!Number.isInteger(iterations) || iterations < 1) throw new RangeError(`iterations must be a positive integer (got ${iterations})`);
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`confidence must be in (0, 1) (got ${confidence})`);
  return { iterations, seed, confidence };
}

/**
 * Percentile bounds (linear interpolation, R/numpy type 7) of the finite resample values. Resamples where the statistic is
 * undefined (NaN, e.g. kappa when a resample holds one class only) are left out rather
 * than counted as some value; all undefined → NaN bounds.
 */
function percentiles(samples: Float64Array, confidence: number): { low: number; high: number } {
  const finite = Array.from(samples).filter((v) => Number.isFinite(v));
  if (finite.length === 0) return { low: NaN, high: NaN };
  finite.sort((a, b) => a - b);
  const alpha = 1 - confidence;
  return { low: quantileSorted(finite, alpha / 2), high: quantileSorted(finite, 1 - alpha / 2) };
}

function methodText(iterations: number, seed: number, confidence: number): string {
  return `percentile bootstrap over items, ${iterations} resamples, seed ${seed}, ${confidencePercent(confidence)}% two-sided`;
}

/**
 * Seeded percentile bootstrap of a statistic over n items. `stat` receives the item indices
 * of one resample (with repetition) and returns the statistic on them; the estimate is `stat`
 * on the identity indices 0..n−1. Resampling indices (not values) lets one call cover paired
 * or multi-column statistics. n = 0 → NaN estimate and bounds, no samples.
 */
export function bootstrapInterval(
  n: number,
  stat: (indices: Uint32Array) => number,
  opts?: BootstrapOptions,
): Interval & { samples: Float64Array } {
  return bootstrapIntervals(n, 1, (idx) => [stat(idx)], opts)[0]!;
}

/**
 * bootstrapInterval for `count` statistics on the same resamples: `stat` returns all of them
 * at once, so work they share (e.g. one resample's confusion table) is done once per resample.
 * Result i is what bootstrapInterval(n, (idx) => stat(idx)[i], opts) gives.
 */
export function bootstrapIntervals(
  n: number,
  count: number,
  stat: (indices: Uint32Array) => readonly number[],
  opts?: BootstrapOptions,
): (Interval & { samples: Float64Array })[] {
  const { iterations, seed, confidence } = resolve(opts);
  const method = methodText(iterations, seed, confidence);
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`n must be a non-negative integer (got ${n})`);
  const stats = Array.from({ length: count }, (_, k) => k);
  if (n === 0) return stats.map(() => ({ estimate: NaN, low: NaN, high: NaN, method, samples: new Float64Array(0) }));
  const identity = new Uint32Array(n);
  for (let i = 0; i < n; i++) identity[i] = i;
  const estimates = stat(identity);
  const rng = createRng(seed);
  const samples = stats.map(() => new Float64Array(iterations));
  const idx = new Uint32Array(n);
  for (let r = 0; r < iterations; r++) {
    for (let i = 0; i < n; i++) idx[i] = Math.floor(rng() * n);
    const values = stat(idx);
    for (const k of stats) samples[k]![r] = values[k]!;
  }
  return stats.map((k) => ({ estimate: estimates[k]!, ...percentiles(samples[k]!, confidence), method, samples: samples[k]! }));
}

/**
 * Paired bootstrap of mean(a) − mean(b): both systems are resampled on the same item
 * indices, so the interval reflects item-level pairing (much tighter than two independent
 * intervals when systems succeed on the same items). pGreater = share of resamples with a
 * positive difference. Empty input → NaN everywhere.
 */
export function pairedBootstrapDiff(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  opts?: BootstrapOptions,
): Interval & { pGreater: number } {
  if (a.length !== b.length) throw new RangeError(`paired samples differ in length (${a.length} vs ${b.length})`);
  const n = a.length;
  const diff = new Float64Array(n);
  for (let i = 0; i < n; i++) diff[i] = a[i]! - b[i]!;
  const res = bootstrapInterval(
    n,
    (idx) => {
      let s = 0;
      for (let i = 0; i < idx.length; i++) s += diff[idx[i]!]!;
      return s / idx.length;
    },
    opts,
  );
  return pairedResult(res, res.samples);
}

/** A difference-of-means interval as pairedBootstrapDiff returns it (no resamples → pGreater NaN). */
function pairedResult(iv: Interval, samples: Float64Array): Interval & { pGreater: number } {
  let greater = 0;
  for (const v of samples) if (v > 0) greater++;
  return {
    estimate: iv.estimate,
    low: iv.low,
    high: iv.high,
    method: `paired ${iv.method}; difference of means`,
    pGreater: samples.length === 0 ? NaN : greater / samples.length,
  };
}

/**
 * Correct counts of 0/1 rows (one per system, all of length n) in each resample, drawn exactly
 * as bootstrapInterval draws them for the same seed: `counts[s][r]` = Σ rows[s][i] over the
 * items of resample r. One pass serves every pairwise difference (pairedDiffFromCounts) and the
 * rank ranges, where a pairedBootstrapDiff per pair would redraw the same resamples each time.
 * n = 0 → no resamples (empty arrays).
 */
export function resampleCounts(rows: readonly Uint8Array[], opts?: BootstrapOptions): Uint32Array[] {
  const { iterations, seed } = resolve(opts);
  const n = rows[0]?.length ?? 0;
  if (n === 0) return rows.map(() => new Uint32Array(0));
  const counts = rows.map(() => new Uint32Array(iterations));
  const rng = createRng(seed);
  const idx = new Uint32Array(n);
  for (let r = 0; r < iterations; r++) {
    for (let i = 0; i < n; i++) idx[i] = Math.floor(rng() * n);
    for (let s = 0; s < rows.length; s++) {
      const row = rows[s]!;
      let c = 0;
      for (let i = 0; i < n; i++) c += row[idx[i]!]!;
      counts[s]![r] = c;
    }
  }
  return counts;
}

/**
 * pairedBootstrapDiff of two 0/1 rows from their resampleCounts (same opts): kA, kB are the rows'
 * totals over the n items. Identical to pairedBootstrapDiff(rowA, rowB, opts), since a sum of
 * 0/±1 differences is exact in floating point.
 */
export function pairedDiffFromCounts(
  a: { k: number; resampled: Uint32Array },
  b: { k: number; resampled: Uint32Array },
  n: number,
  opts?: BootstrapOptions,
): Interval & { pGreater: number } {
  const { iterations, seed, confidence } = resolve(opts);
  const method = methodText(iterations, seed, confidence);
  if (n === 0) return pairedResult({ estimate: NaN, low: NaN, high: NaN, method }, new Float64Array(0));
  const samples = new Float64Array(iterations);
  for (let r = 0; r < iterations; r++) samples[r] = (a.resampled[r]! - b.resampled[r]!) / n;
  return pairedResult({ estimate: (a.k - b.k) / n, ...percentiles(samples, confidence), method }, samples);
}
