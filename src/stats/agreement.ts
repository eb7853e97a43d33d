import { bootstrapIntervals, type BootstrapOptions } from './bootstrap.js';
import { cellCodes, checkConfusion, confusionFrom, tableOf, type Confusion } from './confusion.js';
import { wilson, type Interval } from './intervals.js';

/*
 * Zero-denominator convention for this file: a metric whose denominator is 0 is undefined
 * and returned as NaN (a dash in reports, null in --json); nothing here throws on such tables or returns Infinity.
 * NaN rather than 0 because 0 would read as "no better than chance".
 */

/** x / y, NaN when y = 0. */
function ratio(x: number, y: number): number {
  return y === 0 ? NaN : x / y;
}

/**
 * Cohen's kappa (po − pe)/(1 − pe). NaN when n = 0 or pe = 1 (both raters used one and
 * the same label on every item: agreement is perfect but kappa is 0/0).
 */
export function cohenKappa(c: Confusion): number {
  checkConfusion(c);
  const n = c.tp + c.fp + c.fn + c.tn;
  if (n === 0) return NaN;
  const po = (c.tp + c.tn) / n;
  const pe = ((c.tp + c.fn) * (c.tp + c.fp) + (c.fp + c.tn) * (c.fn + c.tn)) / (n * n);
  return ratio(po - pe, 1 - pe);
}

/**
 * Matthews correlation (tp·tn − fp·fn)/√((tp+fp)(tp+fn)(tn+fp)(tn+fn)). NaN when any
 * marginal is 0 (a rater used one label only), including n = 0.
 */
export function mcc(c: Confusion): number {
  checkConfusion(c);
  const d = (c.tp + c.fp) * (c.tp + c.fn) * (c.tn + c.fp) * (c.tn + c.fn);
  if (d === 0) return NaN;
  return (c.tp * c.tn - c.fp * c.fn) / Math.sqrt(d);
}

export interface DetectorMetrics {
  n: number;
  precision: number;
  recall: number;
  f1: number;
  specificity: number;
  balancedAccuracy: number;
  accuracy: number;
  mcc: number;
  /** p: share of true positives in the sample. */
  prevalence: number;
  /** q: share of items the detector flags. */
  flagRate: number;
  /** F1 of flagging every item: precision p, recall 1 → 2p/(1 + p). */
  floorF1: number;
  /** Expected F1 of flagging a random q share: precision p, recall q → 2pq/(p + q). */
  randomF1: number;
  method: string;
}

/**
 * Detector quality with its two floors. Undefined ratios are NaN: precision with no flags,
 * recall with no positives, specificity with no negatives, F1 and randomF1 with neither
 * positives nor flags, everything but n on an empty table.
 */
export function detectorMetrics(c: Confusion): DetectorMetrics {
  checkConfusion(c);
  const n = c.tp + c.fp + c.fn + c.tn;
  const precision = ratio(c.tp, c.tp + c.fp);
  const recall = ratio(c.tp, c.tp + c.fn);
  const specificity = ratio(c.tn, c.tn + c.fp);
  const p = ratio(c.tp + c.fn, n);
  const q = ratio(c.tp + c.fp, n);
  return {
    n,
    precision,
    recall,
    // 2tp/(2tp + fp + fn) equals the harmonic mean but stays defined when precision is 0/0 and recall is 0.
    f1: ratio(2 * c.tp, 2 * c.tp + c.fp + c.fn),
    specificity,
    balancedAccuracy: (recall + specificity) / 2,
    accuracy: ratio(c.tp + c.tn, n),
    mcc: mcc(c),
    prevalence: p,
    flagRate: q,
    floorF1: ratio(2 * p, 1 + p),
    randomF1: ratio(2 * p * q, p + q),
    method:
      'precision tp/(tp+fp), recall tp/(tp+fn), F1 2tp/(2tp+fp+fn), specificity tn/(tn+fp), MCC; ' +
      'floors: flag-everything F1 2p/(1+p), random flagging at the flag rate q 2pq/(p+q), p = prevalence; undefined ratios NaN',
  };
}

/** Wilson intervals of a detector's four proportions, so a small labelled sample shows its uncertainty. */
export interface DetectorIntervals {
  precision: Interval;
  recall: Interval;
  specificity: Interval;
  accuracy: Interval;
}

/** DetectorIntervals at `confidence`; an empty denominator gives estimate NaN and [0, 1], as detectorMetrics gives NaN. */
export function detectorIntervals(c: Confusion, confidence = 0.95): DetectorIntervals {
  checkConfusion(c);
  return {
    precision: wilson(c.tp, c.tp + c.fp, confidence),
    recall: wilson(c.tp, c.tp + c.fn, confidence),
    specificity: wilson(c.tn, c.tn + c.fp, confidence),
    accuracy: wilson(c.tp + c.tn, c.tp + c.fp + c.fn + c.tn, confidence),
  };
}

export interface AgreementResult {
  n: number;
  /** a as truth, b as prediction, `true` as the positive label. */
  confusion: Confusion;
  kappa: Interval;
  mcc: Interval;
  accuracy: Interval;
  method: string;
}

/**
 * Agreement between two raters' labels on the same items (same order), with seeded
 * percentile-bootstrap CIs over items for kappa, MCC and raw accuracy (share of items
 * where they agree). All three statistics are symmetric in a and b.
 */
export function agreementWithCI(a: readonly boolean[], b: readonly boolean[], opts?: BootstrapOptions): AgreementResult {
  const confusion = confusionFrom(a, b);
  const n = a.length;
  const cells = cellCodes(a, b);
  // One table per resample serves all three statistics.
  const intervals = bootstrapIntervals(
    n,
    3,
    (idx) => {
      const t = tableOf(cells, idx);
      return [cohenKappa(t), mcc(t), ratio(t.tp + t.tn, idx.length)];
    },
    opts,
  );
  const [kappa, m, acc] = [intervals[0]!, intervals[1]!, intervals[2]!];
  const strip = (name: string, { estimate, low, high, method }: Interval): Interval => ({ estimate, low, high, method: `${name}; ${method}` });
  return {
    n,
    confusion,
    kappa: strip("Cohen's kappa", kappa),
    mcc: strip('Matthews correlation', m),
    accuracy: strip('raw agreement (share of items with equal labels)', acc),
    method: `Cohen's kappa, Matthews correlation and raw agreement; CIs: ${kappa.method} (resamples with an undefined statistic are left out)`,
  };
}
