import { mean } from 'simple-statistics';
import { cohenKappa } from '../stats/agreement.js';
import { bootstrapInterval, type BootstrapOptions } from '../stats/bootstrap.js';
import { cellCodes, confusionFrom, tableOf, type Confusion } from '../stats/confusion.js';
import { finiteSd, kappaDiffSampleSize } from '../stats/kappa-sample-size.js';
import { mcnemarExact } from '../stats/mcnemar.js';
import { metricsOf, type MetricBlock, type MetricName } from './metrics.js';

/** Items every given column has a verdict for, with the human labels and each column's verdicts on them. */
export interface CoveredItems {
  human: boolean[];
  /** One array per column, aligned with `human`. */
  verdicts: boolean[][];
}

/**
 * The items of `indices` that every column covers: judges and ensembles are always compared
 * with the humans (and with each other) on these, so coverage differences do not pose as quality.
 */
export function coveredItems(
  human: readonly boolean[],
  columns: readonly (readonly (boolean | null)[])[],
  indices: readonly number[],
): CoveredItems {
  const idx = indices.filter((i) => columns.every((c) => c[i] !== null && c[i] !== undefined));
  return { human: idx.map((i) => human[i]!), verdicts: columns.map((c) => idx.map((i) => c[i] as boolean)) };
}

export interface PairComparison {
  /** Items both judges cover. */
  n: number;
  kappaA: number;
  kappaB: number;
  /** κ(A) − κ(B) against the humans, with a paired percentile-bootstrap CI. */
  kappaDiff: number;
  kappaDiffCi: [number, number];
  /** Share of paired resamples with κ(A) > κ(B). */
  pAGreater: number;
  /**
   * Two-sided percentile-bootstrap p of Δκ = 0: min(1, 2·min(share ≥ 0, share ≤ 0)) over the finite resamples
   * (the level at which the percentile interval just reaches 0); pHolm over every judge pair × subset.
   */
  kappaDiffP: number;
  kappaDiffPHolm: number;
  /** Exact McNemar on correctness vs humans: b = A right & B wrong, c = A wrong & B right; pHolm over every judge pair × subset. */
  mcnemar: { b: number; c: number; pValue: number; pHolm: number };
  /** κ between the two judges' verdicts. */
  interJudgeKappa: number;
  /** Items needed to detect Δκ 0.10 (α 0.05, power 0.8) for judges like these two. */
  sampleSizeDelta010: number | null;
}

export function comparePair(
  human: readonly boolean[],
  a: readonly (boolean | null)[],
  b: readonly (boolean | null)[],
  indices: readonly number[],
  boot: BootstrapOptions,
): PairComparison {
  const {
    human: h,
    verdicts: [va, vb],
  } = coveredItems(human, [a, b], indices);
  const n = h.length;
  const ca = cellCodes(h, va);
  const cb = cellCodes(h, vb);
  const diff = bootstrapInterval(n, (r) => cohenKappa(tableOf(ca, r)) - cohenKappa(tableOf(cb, r)), boot);
  let greater = 0;
  let atLeast = 0;
  let atMost = 0;
  let finite = 0;
  for (const v of diff.samples) {
    if (!Number.isFinite(v)) continue;
    finite++;
    if (v > 0) greater++;
    if (v >= 0) atLeast++;
    if (v <= 0) atMost++;
  }
  let bCount = 0;
  let cCount = 0;
  for (let i = 0; i < n; i++) {
    const okA = va[i] === h[i];
    const okB = vb[i] === h[i];
    if (okA && !okB) bCount++;
    if (!okA && okB) cCount++;
  }
  return {
    n,
    kappaA: cohenKappa(confusionFrom(h, va)),
    kappaB: cohenKappa(confusionFrom(h, vb)),
    kappaDiff: diff.estimate,
    kappaDiffCi: [diff.low, diff.high],
    pAGreater: finite === 0 ? NaN : greater / finite,
    kappaDiffP: finite === 0 ? NaN : Math.min(1, (2 * Math.min(atLeast, atMost)) / finite),
    // Set by the caller, once every pair × subset is known (Holm over the family).
    kappaDiffPHolm: NaN,
    mcnemar: { b: bCount, c: cCount, pValue: mcnemarExact(bCount, cCount).pValue, pHolm: NaN },
    interJudgeKappa: n === 0 ? NaN : cohenKappa(confusionFrom(va, vb)),
    sampleSizeDelta010: kappaDiffSampleSize({ n, se: finiteSd(diff.samples) }).n,
  };
}

const UPGRADE_METRICS: readonly MetricName[] = ['kappa', 'accuracy', 'mcc', 'f1'];

export interface BaselineComparison {
  candidate: string;
  /** Items both cover. */
  n: number;
  /** candidate − baseline on each of κ, accuracy, MCC, F1. */
  deltas: Record<'kappa' | 'accuracy' | 'mcc' | 'f1', number>;
  /** ROSE's upgrade rule: better on all four. */
  beatsAll: boolean;
  /** Share of paired bootstrap resamples in which the candidate is better on all four. */
  probability: number;
}

export function compareToBaseline(
  candidate: string,
  human: readonly boolean[],
  cand: readonly (boolean | null)[],
  base: readonly (boolean | null)[],
  indices: readonly number[],
  boot: BootstrapOptions,
): BaselineComparison {
  const {
    human: h,
    verdicts: [vc, vb],
  } = coveredItems(human, [cand, base], indices);
  const cc = cellCodes(h, vc);
  const cb = cellCodes(h, vb);
  const deltasOf = (tc: Confusion, tb: Confusion): number[] => {
    const mc = metricsOf(tc);
    const mb = metricsOf(tb);
    return UPGRADE_METRICS.map((m) => mc[m] - mb[m]);
  };
  // NaN deltas (a metric undefined on a resample) do not count as better.
  const wins = bootstrapInterval(h.length, (r) => (deltasOf(tableOf(cc, r), tableOf(cb, r)).every((d) => d > 0) ? 1 : 0), boot);
  let sum = 0;
  for (const v of wins.samples) sum += v;
  const d = deltasOf(confusionFrom(h, vc), confusionFrom(h, vb));
  return {
    candidate,
    n: h.length,
    deltas: { kappa: d[0]!, accuracy: d[1]!, mcc: d[2]!, f1: d[3]! },
    beatsAll: d.every((x) => x > 0),
    probability: wins.samples.length === 0 ? NaN : sum / wins.samples.length,
  };
}

export interface Spread {
  min: number;
  max: number;
  /** max − min. */
  range: number;
  mean: number;
  sd: number;
}

function spreadOf(values: number[]): Spread {
  const v = values.filter((x) => Number.isFinite(x));
  if (v.length === 0) return { min: NaN, max: NaN, range: NaN, mean: NaN, sd: NaN };
  const min = Math.min(...v);
  const max = Math.max(...v);
  return { min, max, range: max - min, mean: mean(v), sd: finiteSd(v) };
}

export interface RepeatSpread {
  judges: string[];
  /** Items every run covers. */
  n: number;
  kappa: Spread;
  accuracy: Spread;
  mcc: Spread;
  f1: Spread;
  /** Items (covered by all runs) on which the runs do not all agree. */
  unstable: number;
  unstableShare: number;
}

/** How much repeat runs of one judge move: `blocks` and `verdicts` are theirs on the items they all cover (coveredItems). */
export function repeatSpread(judges: readonly string[], blocks: readonly MetricBlock[], verdicts: readonly (readonly boolean[])[]): RepeatSpread {
  const n = verdicts[0]?.length ?? 0;
  let unstable = 0;
  for (let i = 0; i < n; i++) if (verdicts.some((v) => v[i] !== verdicts[0]![i])) unstable++;
  return {
    judges: [...judges],
    n,
    kappa: spreadOf(blocks.map((b) => b.kappa)),
    accuracy: spreadOf(blocks.map((b) => b.accuracy)),
    mcc: spreadOf(blocks.map((b) => b.mcc)),
    f1: spreadOf(blocks.map((b) => b.f1)),
    unstable,
    unstableShare: n === 0 ? NaN : unstable / n,
  };
}
