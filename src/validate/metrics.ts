import { cohenKappa, detectorMetrics } from '../stats/agreement.js';
import { bootstrapIntervals, type BootstrapOptions } from '../stats/bootstrap.js';
import { cellCodes, tableOf, type Confusion } from '../stats/confusion.js';

/**
 * Agreement of a judge with the human verdicts on the items it covers. Positive class:
 * "the prediction is correct", so precision is the share of the judge's passes that humans
 * also pass, recall the share of human-correct items the judge passes, and the over-flag
 * rate (human-correct items the judge rejects) is 1 − recall.
 */
const METRICS = ['accuracy', 'kappa', 'mcc', 'f1', 'precision', 'recall', 'overFlagRate'] as const;
export type MetricName = (typeof METRICS)[number];

export interface MetricBlock {
  /** Items with a verdict (the metrics' denominator). */
  n: number;
  /** Items of the subset. */
  items: number;
  /** n / items. */
  coverage: number;
  accuracy: number;
  kappa: number;
  mcc: number;
  f1: number;
  precision: number;
  recall: number;
  overFlagRate: number;
  /** Percentile-bootstrap intervals [low, high] of each metric. */
  ci: Record<MetricName, [number, number]>;
  confusion: Confusion;
}

/** Every metric of one table (one detectorMetrics call serves all but κ). */
export function metricsOf(c: Confusion): Record<MetricName, number> {
  const d = detectorMetrics(c);
  return { accuracy: d.accuracy, kappa: cohenKappa(c), mcc: d.mcc, f1: d.f1, precision: d.precision, recall: d.recall, overFlagRate: 1 - d.recall };
}

/** The metric block of one judge (or ensemble) on one subset; bootstrap seeded per call. */
export function metricBlock(human: readonly boolean[], judge: readonly boolean[], items: number, boot: BootstrapOptions): MetricBlock {
  const cells = cellCodes(human, judge);
  const n = cells.length;
  const all = new Uint32Array(n);
  for (let i = 0; i < n; i++) all[i] = i;
  const confusion = tableOf(cells, all);
  const ci = {} as Record<MetricName, [number, number]>;
  const point = {} as Record<MetricName, number>;
  // One pass of resamples, one table each, serves every metric: all intervals come from the same resamples.
  const intervals = bootstrapIntervals(
    n,
    METRICS.length,
    (idx) => {
      const m = metricsOf(tableOf(cells, idx));
      return METRICS.map((k) => m[k]);
    },
    boot,
  );
  METRICS.forEach((m, k) => {
    const iv = intervals[k]!;
    point[m] = iv.estimate;
    ci[m] = [iv.low, iv.high];
  });
  return { n, items, coverage: items === 0 ? NaN : n / items, ...point, ci, confusion };
}
