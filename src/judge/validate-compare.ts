import { cohenKappa } from '../stats/agreement.js';
import { bootstrapInterval, type BootstrapOptions } from '../stats/bootstrap.js';
import { cellCodes, confusionFrom, tableOf } from '../stats/confusion.js';
import { finiteSd, kappaDiffSampleSize } from '../stats/kappa-sample-size.js';
import { mcnemarExact } from '../stats/mcnemar.js';
import { metricsOf, type MetricBlock, type MetricName } from './validate-metrics.js';

/** Items (by index into the item list) where every given column has a verdict. */
export function jointlyCovered(indices: readonly number[], columns: readonly (readonly (boolean | null)[])[]): number[] {
  return indices.filter((i) => columns.every((c) => c[i] !== null && c[i] !== undefined));
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
  /** Exact McNemar on correctness vs humans: b = A right & B wrong, c = A wrong & B right. */
  mcnemar: { b: number; c: number; pValue: number };
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
  const idx = jointlyCovered(indices, [a, b]);
  const h = idx.map((i) => human[i]!);
  const va = idx.map((i) => a[i] as boolean);
  const vb = idx.map((i) => b[i] as boolean);
  const ca = cellCodes(h, va);
  const cb = cellCodes(h, vb);
  const kA = (r: Uint32Array): number => cohenKappa(tableOf(ca, r));
  const kB = (r: Uint32Array): number => cohenKappa(tableOf(cb, r));
  const diff = bootstrapInterval(idx.length, (r) => kA(r) - kB(r), boot);
  let greater = 0;
  let finite = 0;
  for (const v of diff.samples) {
    if (!Number.isFinite(v)) continue;
    finite++;
    if (v > 0) greater++;
  }
  let bCount = 0;
  let cCount = 0;
  for (let i = 0; i < idx.length; i++) {
    const okA = va[i] === h[i];
    const okB = vb[i] === h[i];
    if (okA && !okB) bCount++;
    if (!okA && okB) cCount++;
  }
  const all = new Uint32Array(idx.length).map((_, i) => i);
  return {
    n: idx.length,
    kappaA: kA(all),
    kappaB: kB(all),
    kappaDiff: diff.estimate,
    kappaDiffCi: [diff.low, diff.high],
    pAGreater: finite === 0 ? NaN : greater / finite,
    mcnemar: { b: bCount, c: cCount, pValue: mcnemarExact(bCount, cCount).pValue },
    interJudgeKappa: idx.length === 0 ? NaN : cohenKappa(confusionFrom(va, vb)),
    sampleSizeDelta010: kappaDiffSampleSize({ n: idx.length, se: finiteSd(diff.samples) }).n,
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
  const idx = jointlyCovered(indices, [cand, base]);
  const h = idx.map((i) => human[i]!);
  const cc = cellCodes(h, idx.map((i) => cand[i] as boolean));
  const cb = cellCodes(h, idx.map((i) => base[i] as boolean));
  const deltasOf = (r: Uint32Array): number[] => {
    const mc = metricsOf(tableOf(cc, r));
    const mb = metricsOf(tableOf(cb, r));
    return UPGRADE_METRICS.map((m) => mc[m] - mb[m]);
  };
  // NaN deltas (a metric undefined on a resample) do not count as better.
  const wins = bootstrapInterval(idx.length, (r) => (deltasOf(r).every((d) => d > 0) ? 1 : 0), boot);
  let sum = 0;
  for (const v of wins.samples) sum += v;
  const d = deltasOf(new Uint32Array(idx.length).map((_, i) => i));
  return {
    candidate,
    n: idx.length,
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
  return { min, max, range: max - min, mean: v.reduce((s, x) => s + x, 0) / v.length, sd: finiteSd(v) };
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

/**
 * How much repeat runs of one judge move, on the items they all cover: `idx` is
 * jointlyCovered(scope, columns), the items `blocks` were computed on.
 */
export function repeatSpread(
  judges: readonly string[],
  blocks: readonly MetricBlock[],
  columns: readonly (readonly (boolean | null)[])[],
  idx: readonly number[],
): RepeatSpread {
  const unstable = idx.filter((i) => new Set(columns.map((c) => c[i])).size > 1).length;
  return {
    judges: [...judges],
    n: idx.length,
    kappa: spreadOf(blocks.map((b) => b.kappa)),
    accuracy: spreadOf(blocks.map((b) => b.accuracy)),
    mcc: spreadOf(blocks.map((b) => b.mcc)),
    f1: spreadOf(blocks.map((b) => b.f1)),
    unstable,
    unstableShare: idx.length === 0 ? NaN : unstable / idx.length,
  };
}
