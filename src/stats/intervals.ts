import { betaQuantile } from './beta.js';
import { normalQuantile } from './normal.js';

/** A point estimate with a two-sided interval; all values are fractions, never percents. */
export interface Interval {
  estimate: number;
  low: number;
  high: number;
  /** How the interval was computed, for printing next to it. */
  method: string;
}

/** A confidence as the percentage methods print: 0.95 → 95, 0.975 → 97.5 (one decimal at most). */
export function confidencePercent(confidence: number): number {
  return Math.round(confidence * 1000) / 10;
}

function checkCounts(k: number, n: number, confidence: number): void {
  if (!Number.isInteger(k) || !Number.isInteger(n) || k < 0 || n < 0 || k > n) {
    throw new RangeError(`need integer counts with 0 ≤ k ≤ n (got k = ${k}, n = ${n})`);
  }
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`confidence must be in (0, 1) (got ${confidence})`);
}

/**
 * Wilson score interval for k successes in n trials. Chosen over the Wald interval because
 * it stays inside [0, 1] and keeps its coverage near p = 0 or 1 and for small n.
 * n = 0: estimate NaN, interval [0, 1] (no information).
 */
export function wilson(k: number, n: number, confidence = 0.95): Interval {
  checkCounts(k, n, confidence);
  const method = `Wilson score interval, ${confidencePercent(confidence)}% two-sided`;
  if (n === 0) return { estimate: NaN, low: 0, high: 1, method };
  const z = normalQuantile(1 - (1 - confidence) / 2);
  const p = k / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // At k = 0 or k = n the bound is exactly 0 or 1; clamp away rounding residue.
  return {
    estimate: p,
    low: k === 0 ? 0 : Math.max(0, centre - half),
    high: k === n ? 1 : Math.min(1, centre + half),
    method,
  };
}

/**
 * Clopper–Pearson exact interval from beta quantiles:
 * low = B⁻¹(α/2; k, n − k + 1), high = B⁻¹(1 − α/2; k + 1, n − k). Conservative (coverage ≥ nominal).
 * n = 0: estimate NaN, interval [0, 1].
 */
export function clopperPearson(k: number, n: number, confidence = 0.95): Interval {
  checkCounts(k, n, confidence);
  const method = `Clopper–Pearson exact interval (beta quantiles), ${confidencePercent(confidence)}% two-sided`;
  if (n === 0) return { estimate: NaN, low: 0, high: 1, method };
  const alpha = 1 - confidence;
  return {
    estimate: k / n,
    low: k === 0 ? 0 : betaQuantile(alpha / 2, k, n - k + 1),
    high: k === n ? 1 : betaQuantile(1 - alpha / 2, k + 1, n - k),
    method,
  };
}
