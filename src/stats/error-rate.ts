import { fitLogistic, predictLogistic } from './logistic.js';
import { normalQuantile } from './normal.js';
import { createRng } from './rng.js';

/**
 * The error rate of one benchmark (a finite population of N tasks) from a label-free score
 * on every task and hand labels on a simple random sample of them: a cross-fitted,
 * model-assisted difference estimator (survey sampling's GREG; "prediction-powered inference"
 * with cross-prediction, Zrnic & Candès 2024).
 *
 *   ê = (1/N) Σ_all ĝ(x_i)  +  (1/n) Σ_labelled (y_i − ĝ₋(x_i))
 *
 * ĝ calibrates the score to P(error) by a logistic fit on the labels (Platt scaling); ĝ₋ is
 * the fit made without the task's own fold, so a residual is out-of-sample and the second
 * term corrects the first without bias, however badly the score is calibrated. The first term
 * averages the K fold fits. Its variance is conditional on the benchmark (the estimand is this
 * benchmark's error rate, not a super-population's): (1 − n/N)·S²(residual)/n, with the finite
 * population correction.
 *
 * Why not Rogan–Gladen on the flags: it divides by TPR − FPR, each estimated from the small
 * labelled sample, which triples the interval; and the difference of two such estimates
 * (before and after a change to the benchmark) pairs nothing. Here a shift between two
 * versions of a benchmark labelled on the same sample is the mean of paired residual
 * differences (`errorRateShift`), whose spread is small when the score tracks the change.
 */
export interface LabelledSample {
  /** Position of each labelled task among the N scored. */
  index: readonly number[];
  /** 1 = the task's gold is wrong, 0 = right; one per `index`. */
  y: readonly number[];
  /** A stable id per labelled task: folds and pairing between two estimates follow it. */
  ids: readonly string[];
}

export interface ErrorRateEstimate {
  estimate: number;
  se: number;
  ciLow: number;
  ciHigh: number;
  confidence: number;
  /** The score's calibrated mean over all N tasks (the first term). */
  modelTerm: number;
  /** The labelled sample's mean out-of-fold residual (the correction). */
  correction: number;
  /** The labelled sample's own error share (the estimator without a model). */
  sampleShare: number;
  n: number;
  N: number;
  /** Out-of-fold residual y − ĝ₋(x) per labelled task id. */
  residuals: Map<string, number>;
  method: string;
  /** Why the estimate is NaN, when it is (fewer than 4 labelled tasks). */
  reason?: string;
}

export interface ErrorRateOptions {
  /** Folds of the labelled sample (default 10; at most half the labelled tasks). */
  folds?: number;
  /** Seed of the fold assignment (default 1). */
  seed?: number;
  /** Two-sided confidence (default 0.95). */
  confidence?: number;
}

const clip01 = (v: number): number => Math.min(1, Math.max(0, v));

/** Folds dealt by id order after a seeded shuffle: the same ids get the same folds in every call. */
function foldsById(ids: readonly string[], k: number, seed: number): Map<string, number> {
  const sorted = [...new Set(ids)].sort();
  const rng = createRng(seed);
  for (let i = sorted.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [sorted[i], sorted[j]] = [sorted[j]!, sorted[i]!];
  }
  return new Map(sorted.map((id, r) => [id, r % k]));
}

/** `score[i]`: any label-free score of task i (higher = more suspicious); a logit of a probability suits the calibration best. */
export function crossFittedErrorRate(score: readonly number[], sample: LabelledSample, opts: ErrorRateOptions = {}): ErrorRateEstimate {
  const N = score.length;
  const n = sample.index.length;
  const k = Math.min(opts.folds ?? 10, Math.floor(n / 2));
  const confidence = opts.confidence ?? 0.95;
  if (n > N) throw new RangeError(`the labelled sample (${n}) is larger than the benchmark (${N})`);
  if (k < 2) {
    const reason = `${n} labelled tasks: cross-fitting needs at least 4`;
    return { estimate: NaN, se: NaN, ciLow: NaN, ciHigh: NaN, confidence, modelTerm: NaN, correction: NaN, sampleShare: mean(sample.y), n, N, residuals: new Map(), method: reason, reason };
  }
  const fold = foldsById(sample.ids, k, opts.seed ?? 1);
  const residuals = new Map<string, number>();
  let modelTerm = 0;
  for (let f = 0; f < k; f++) {
    const X: number[][] = [];
    const t: number[] = [];
    sample.index.forEach((i, r) => {
      if (fold.get(sample.ids[r]!) === f) return;
      X.push([score[i]!]);
      t.push(sample.y[r]!);
    });
    const g = fitLogistic(X, t);
    let sum = 0;
    for (let i = 0; i < N; i++) sum += predictLogistic(g, [score[i]!]);
    modelTerm += sum / N / k;
    sample.index.forEach((i, r) => {
      if (fold.get(sample.ids[r]!) === f) residuals.set(sample.ids[r]!, sample.y[r]! - predictLogistic(g, [score[i]!]));
    });
  }
  const res = [...residuals.values()];
  const correction = mean(res);
  const se = Math.sqrt(((1 - n / N) * variance(res)) / n);
  const z = normalQuantile(1 - (1 - confidence) / 2);
  const raw = modelTerm + correction;
  return {
    estimate: clip01(raw),
    se,
    ciLow: clip01(raw - z * se),
    ciHigh: clip01(raw + z * se),
    confidence,
    modelTerm,
    correction,
    sampleShare: mean(sample.y),
    n,
    N,
    residuals,
    method:
      `cross-fitted difference estimator: the label-free score calibrated to P(error) by a logistic fit on the labels, averaged over all ${N} tasks, ` +
      `plus the mean out-of-fold residual of the ${n} labelled tasks (${k} folds by task id, seed ${opts.seed ?? 1}); ` +
      `normal interval with finite-population correction, clipped to [0, 1]`,
  };
}

export interface ErrorRateShift {
  estimate: number;
  se: number;
  ciLow: number;
  ciHigh: number;
  confidence: number;
  /** Labelled tasks in both samples (the pairs). */
  pairs: number;
}

/**
 * `after − before` for two versions of one benchmark whose labelled samples share task ids
 * (labels re-read after the change). The interval is from the paired residual differences:
 * the same labelled tasks enter both estimates, so their luck cancels.
 */
export function errorRateShift(before: ErrorRateEstimate, after: ErrorRateEstimate, confidence = 0.95): ErrorRateShift {
  const d: number[] = [];
  for (const [id, r] of after.residuals) {
    const b = before.residuals.get(id);
    if (b !== undefined) d.push(r - b);
  }
  const estimate = after.modelTerm + after.correction - (before.modelTerm + before.correction);
  const N = Math.max(before.N, after.N);
  const se = d.length > 1 ? Math.sqrt(((1 - d.length / N) * variance(d)) / d.length) : NaN;
  const z = normalQuantile(1 - (1 - confidence) / 2);
  return { estimate, se, ciLow: estimate - z * se, ciHigh: estimate + z * se, confidence, pairs: d.length };
}

function mean(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return xs.length ? s / xs.length : NaN;
}

function variance(xs: readonly number[]): number {
  const m = mean(xs);
  let s = 0;
  for (const x of xs) s += (x - m) ** 2;
  return xs.length > 1 ? s / (xs.length - 1) : NaN;
}

export interface LabelNoiseAdjusted {
  estimate: number;
  ciLow: number;
  ciHigh: number;
  /** The hand labels' error rate ε assumed (each label flipped with probability ε, either way). */
  labelErrorRate: number;
}

/**
 * The error rate corrected for noisy hand labels: if each label is flipped with probability ε
 * (independently of the task), a labelled share estimates ε + θ(1 − 2ε), so θ = (ê − ε)/(1 − 2ε),
 * and the interval's ends map the same way (the map is increasing for ε < ½); the interval widens
 * by 1/(1 − 2ε). ε is taken as known: its own uncertainty is not in the interval.
 */
export function adjustForLabelNoise(est: { estimate: number; ciLow: number; ciHigh: number }, labelErrorRate: number): LabelNoiseAdjusted {
  const e = labelErrorRate;
  if (!(e >= 0 && e < 0.5)) throw new RangeError(`the label error rate must be in [0, 0.5) (got ${e})`);
  const f = (v: number): number => clip01((v - e) / (1 - 2 * e));
  return { estimate: f(est.estimate), ciLow: f(est.ciLow), ciHigh: f(est.ciHigh), labelErrorRate: e };
}
