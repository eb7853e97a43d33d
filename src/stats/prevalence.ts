import { normalQuantile } from './normal.js';

export interface RoganGladenInput {
  /** N: items the detector ran on. */
  n: number;
  /** Items it flagged among N. */
  flagged: number;
  /** Its confusion table on a labelled sample (positive = error). */
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  /** Two-sided confidence (default 0.95). */
  confidence?: number;
}

export interface RoganGladenResult {
  estimate: number;
  ciLow: number;
  ciHigh: number;
  flagRate: number;
  tpr: number;
  fpr: number;
  se: number;
  /** The estimate before clipping to [0, 1]. */
  rawEstimate: number;
  /** True when the estimate or a bound was clipped to [0, 1]. */
  clipped: boolean;
  confidence: number;
  /** Why the estimate is NaN, when it is. */
  reason?: string;
  method: string;
}

const METHOD =
  'Rogan–Gladen: e = (flag rate − FPR)/(TPR − FPR); delta-method CI from binomial variances of the flag rate (n = N), ' +
  'TPR (n = tp + fn) and FPR (n = fp + tn); clipped to [0, 1]';

/**
 * True error prevalence from a detector's flag rate on N items, corrected for its
 * sensitivity and false-positive rate measured on a labelled sample. The variance is
 * Var(e) ≈ [Var(f) + e²·Var(TPR) + (1 − e)²·Var(FPR)] / (TPR − FPR)², the three rates being
 * independent binomial proportions. Undefined cases (N = 0, no labelled errors or correct
 * items, TPR = FPR) return NaN with a `reason`; nothing throws on them.
 */
export function roganGladen(input: RoganGladenInput): RoganGladenResult {
  const { n, flagged, tp, fp, fn, tn } = input;
  const confidence = input.confidence ?? 0.95;
  for (const [name, v] of Object.entries({ n, flagged, tp, fp, fn, tn })) {
    if (!Number.isInteger(v) || v < 0) throw new RangeError(`${name} must be a non-negative integer (got ${v})`);
  }
  if (flagged > n) throw new RangeError(`flagged (${flagged}) cannot exceed n (${n})`);
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`confidence must be in (0, 1) (got ${confidence})`);
  const flagRate = n === 0 ? NaN : flagged / n;
  const pos = tp + fn;
  const neg = fp + tn;
  const tpr = pos === 0 ? NaN : tp / pos;
  const fpr = neg === 0 ? NaN : fp / neg;
  const undefinedResult = (reason: string): RoganGladenResult => ({
    estimate: NaN, ciLow: NaN, ciHigh: NaN, flagRate, tpr, fpr, se: NaN, rawEstimate: NaN,
    clipped: false, confidence, reason, method: METHOD,
  });
  if (n === 0) return undefinedResult('n = 0: no flag rate');
  if (pos === 0) return undefinedResult('no labelled errors (tp + fn = 0): TPR undefined');
  if (neg === 0) return undefinedResult('no labelled correct items (fp + tn = 0): FPR undefined');
  const d = tpr - fpr;
  if (d === 0) return undefinedResult('TPR = FPR: the detector does not separate errors from correct items');
  const raw = (flagRate - fpr) / d;
  const varF = (flagRate * (1 - flagRate)) / n;
  const varTpr = (tpr * (1 - tpr)) / pos;
  const varFpr = (fpr * (1 - fpr)) / neg;
  const se = Math.sqrt(varF + raw * raw * varTpr + (1 - raw) * (1 - raw) * varFpr) / Math.abs(d);
  const z = normalQuantile(1 - (1 - confidence) / 2);
  const lowRaw = raw - z * se;
  const highRaw = raw + z * se;
  const clip = (v: number): number => Math.min(1, Math.max(0, v));
  return {
    estimate: clip(raw),
    ciLow: clip(lowRaw),
    ciHigh: clip(highRaw),
    flagRate,
    tpr,
    fpr,
    se,
    rawEstimate: raw,
    clipped: raw < 0 || raw > 1 || lowRaw < 0 || highRaw > 1,
    confidence,
    method: METHOD,
  };
}
