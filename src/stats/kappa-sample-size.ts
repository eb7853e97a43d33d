import { normalQuantile } from './normal.js';

export interface KappaSampleSizeInput {
  /** Items the standard error was measured on. */
  n: number;
  /** Standard error of the κ difference at n items (e.g. the SD of paired bootstrap resamples). */
  se: number;
  /** Difference to detect (default 0.10). */
  delta?: number;
  /** Two-sided significance level (default 0.05). */
  alpha?: number;
  /** Power (default 0.8). */
  power?: number;
}

export interface KappaSampleSize {
  /** Items needed; null when the SE is not a positive finite number. */
  n: number | null;
  method: string;
}

/**
 * Items needed to detect a κ difference `delta` between two judges scored on the same items,
 * from the difference's standard error measured at n items. The SE of a paired κ difference
 * shrinks as 1/√n (κ is a smooth function of cell proportions, so the delta method applies),
 * so the normal-approximation requirement (z₁₋α/₂ + z_power)·SE(n*) ≤ delta gives
 *   n* = n · (SE · (z₁₋α/₂ + z_power) / delta)².
 * Using the measured paired SE keeps the items' pairing and the judges' correlation, which an
 * unpaired formula for two independent kappas (Fleiss, Cohen & Everitt 1969) would ignore.
 */
export function kappaDiffSampleSize(input: KappaSampleSizeInput): KappaSampleSize {
  const delta = input.delta ?? 0.1;
  const alpha = input.alpha ?? 0.05;
  const power = input.power ?? 0.8;
  if (!(delta > 0)) throw new RangeError(`delta must be positive (got ${delta})`);
  if (!(alpha > 0 && alpha < 1) || !(power > 0 && power < 1)) throw new RangeError('alpha and power must be in (0, 1)');
  const z = normalQuantile(1 - alpha / 2) + normalQuantile(power);
  const method = `n* = n·(SE·(z(1−α/2) + z(power))/Δ)², Δ ${delta}, α ${alpha} two-sided, power ${power}; SE of the paired κ difference measured at n`;
  if (!(input.se > 0) || !Number.isFinite(input.se) || !(input.n > 0)) return { n: null, method };
  return { n: Math.ceil(input.n * ((input.se * z) / delta) ** 2), method };
}

/** Sample standard deviation of the finite values (bootstrap resamples can be NaN). */
export function finiteSd(values: ArrayLike<number>): number {
  let n = 0;
  let mean = 0;
  let m2 = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (!Number.isFinite(v)) continue;
    n++;
    const d = v - mean;
    mean += d / n;
    m2 += d * (v - mean);
  }
  return n < 2 ? NaN : Math.sqrt(m2 / (n - 1));
}
