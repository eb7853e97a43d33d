import { pairedDiffFromCounts, resampleCounts } from './bootstrap.js';
import { competitionRanks } from './board-gaps.js';
import { gapThreshold, pairNoiseBound, pairNoiseBoundFromCount, type GapResult, type PairNoiseBound } from './gap.js';
import { confidencePercent, wilson, type Interval } from './intervals.js';
import { holmAdjust } from './holm.js';
import { mcnemarExact, type McNemarResult } from './mcnemar.js';
import { rankRanges, type RankRange } from './rank-ranges.js';
import { residualErrors, type ResidualErrors } from './residual-errors.js';
import { alignVerdicts, type VerdictSource } from './verdict-matrix.js';

export type { VerdictSource } from './verdict-matrix.js';

export interface ItemsLeaderboardInput {
  sources: readonly VerdictSource[];
  /** taskId → flagged as wrong gold (SALUS label 0). Tasks not in the map count as unflagged. */
  flags?: ReadonlyMap<string, boolean>;
  /** taskId → the gold is right (human labels for some tasks, e.g. SALUS's 200): gives the wrong-gold rate left among unflagged tasks. */
  goldLabels?: ReadonlyMap<string, boolean>;
  /** For g*: the flawed-task count or error rate. Default with flags: the number of flagged tasks. */
  flawed?: number;
  errorRate?: number;
  seed?: number;
  /** Bootstrap resamples (default 2000). */
  iterations?: number;
  /** Default 0.95: two-sided for intervals, α = 1 − confidence for tests, one-sided for g*. */
  confidence?: number;
}

export interface SubsetAccuracy {
  tasks: number;
  correct: number;
  accuracy: Interval;
  rank: number;
}

export interface SystemStanding {
  /** Competition rank by accuracy ("1224"). */
  rank: number;
  system: string;
  tasks: number;
  correct: number;
  /** Wilson interval. */
  accuracy: Interval;
  /** Tasks this system has no verdict for (counted wrong). */
  absent: number;
  missingPrediction: number;
  undecided: number;
  /** Central `confidence` range of the rank over bootstrap resamples of tasks. */
  rankRange: RankRange;
  /** Accuracy on the unflagged tasks (only with flags). */
  clean?: SubsetAccuracy;
  /**
   * Exact McNemar against rank 1 (absent on the first row): b = tasks only #1 got right, c = tasks only this
   * system got right, raw p and p Holm-adjusted over the k − 1 comparisons with #1 (the family of the
   * question "which systems are below #1?"); notSignificantlyBelow = adjusted p ≥ α (non-rejection, not a tie).
   * topAboveShare = share of the bootstrap resamples of tasks in which #1 has more tasks right than this
   * system (ranks above it): a resampling frequency, not the probability that #1 is truly better.
   */
  vsTop?: { difference: number; b: number; c: number; pValue: number; pHolm: number; notSignificantlyBelow: boolean; topAboveShare: number };
  /** accuracy(top) − accuracy ≤ g* (only when g* is known). */
  withinThresholdOfTop?: boolean;
  /**
   * The noise bound of this pair (with #1) from the per-item results (only when g* is known): the wrong
   * golds that can move this gap (flagged tasks when flags are given; else the worst placement of e), and
   * within = accuracy(top) − accuracy ≤ its threshold.
   */
  noiseBound?: PairNoiseBound & { flagged: boolean; within: boolean };
}

export interface SystemPair {
  a: string;
  b: string;
  rankA: number;
  rankB: number;
  /** acc(a) − acc(b), a ranked at or above b, with its paired bootstrap interval and pGreater = the share of resamples with a above b. */
  difference: Interval & { pGreater: number };
  /** b = tasks only a got right, c = tasks only b got right. */
  mcnemar: McNemarResult;
  /** McNemar p Holm-adjusted over all pairs (the family is every pair of systems). */
  pHolm: number;
  /** Holm-adjusted p < α. */
  significant: boolean;
  /** |difference| > g* (only when g* is known). */
  exceedsThreshold?: boolean;
  /** The same comparison on the unflagged tasks (only with flags). */
  clean?: { difference: number; mcnemar: McNemarResult; pHolm: number; significant: boolean };
}

export interface ItemsLeaderboard {
  tasks: number;
  /** Ranked by accuracy, ties broken by name: systems[0] is the top. */
  systems: SystemStanding[];
  pairs: SystemPair[];
  /** Systems below the top whose exact McNemar test against it, Holm-adjusted over the comparisons with #1, gives p ≥ α. */
  notSignificantlyBelowTop: string[];
  flags?: {
    flagged: number;
    clean: number;
    /** Tasks with no row in the flags file (counted unflagged). */
    unlisted: number;
    /** Flag rows for tasks no system has (ignored). */
    unused: number;
    /** With human gold labels: the wrong-gold rate among the unflagged labelled tasks. */
    residual?: ResidualErrors;
  };
  /** σ_gap and g* (`gap.threshold`), when flags or an error count give e. */
  gap?: GapResult;
  /** Systems below the top within g* of it (only when g* is known). */
  withinThresholdOfTop?: string[];
  /** Systems below the top within their pair's noise bound (per-item; only when g* is known). */
  withinPairNoiseBoundOfTop?: string[];
  confidence: number;
  seed: number;
  iterations: number;
  methods: { accuracy: string; difference: string; test: string; vsTop: string; rankRange: string };
}

function count(row: Uint8Array, mask?: Uint8Array): { k: number; n: number } {
  let k = 0;
  let n = 0;
  for (let t = 0; t < row.length; t++) {
    if (mask && !mask[t]) continue;
    n++;
    k += row[t]!;
  }
  return { k, n };
}

/** Discordant counts for McNemar: b = only x right, c = only y right (within mask). */
function discordant(x: Uint8Array, y: Uint8Array, mask?: Uint8Array): { b: number; c: number } {
  let b = 0;
  let c = 0;
  for (let t = 0; t < x.length; t++) {
    if (mask && !mask[t]) continue;
    if (x[t]! > y[t]!) b++;
    else if (y[t]! > x[t]!) c++;
  }
  return { b, c };
}

/**
 * The noise bound of one pair: with flags (cleanMask = unflagged tasks), over the flagged tasks the two do not
 * both get right; without, over the worst placement of the e wrong golds among all such tasks.
 */
function pairNoise(x: Uint8Array, y: Uint8Array, gap: GapResult, cleanMask: Uint8Array | undefined, confidence: number): PairNoiseBound {
  let d = 0;
  let w = 0;
  for (let t = 0; t < x.length; t++) {
    if (cleanMask && cleanMask[t]) continue;
    if (x[t]! !== y[t]!) d++;
    else if (!x[t]!) w++;
  }
  const n = x.length;
  return cleanMask ? pairNoiseBound({ n, discordant: d, bothWrong: w, confidence }) : pairNoiseBoundFromCount(n, gap.flawed, d, w, confidence);
}

/**
 * The per-item leaderboard: systems ranked by accuracy with Wilson intervals, clean-subset
 * accuracy when flags are given, every pair compared with a paired bootstrap interval and an
 * exact McNemar test, the systems rank 1 cannot be separated from, bootstrap rank ranges, and
 * (with flags or an explicit error count) SALUS's g* on N = the number of tasks.
 * Deterministic for a given seed: every bootstrap uses the same seeded task resamples.
 */
export function itemsLeaderboard(input: ItemsLeaderboardInput): ItemsLeaderboard {
  const confidence = input.confidence ?? 0.95;
  const seed = input.seed ?? 42;
  const iterations = input.iterations ?? 2000;
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`confidence must be in (0, 1) (got ${confidence})`);
  if (!Number.isInteger(iterations) || iterations < 1) throw new RangeError(`iterations must be a positive integer (got ${iterations})`);
  const alpha = 1 - confidence;
  const m = alignVerdicts(input.sources);
  const n = m.tasks.length;

  let cleanMask: Uint8Array | undefined;
  let flagSummary: ItemsLeaderboard['flags'];
  if (input.flags) {
    const flags = input.flags;
    cleanMask = new Uint8Array(n);
    let flagged = 0;
    let unlisted = 0;
    m.tasks.forEach((id, t) => {
      const f = flags.get(id);
      if (f === undefined) unlisted++;
      if (f === true) flagged++;
      else cleanMask![t] = 1;
    });
    const taskSet = new Set(m.tasks);
    const unused = [...flags.keys()].filter((id) => !taskSet.has(id)).length;
    flagSummary = { flagged, clean: n - flagged, unlisted, unused };
    if (input.goldLabels) flagSummary.residual = residualErrors(m.tasks, (id) => flags.get(id) === true, input.goldLabels, confidence);
  }

  const gap =
    input.flawed !== undefined || input.errorRate !== undefined
      ? gapThreshold({ n, flawed: input.flawed, errorRate: input.errorRate, confidence })
      : flagSummary
        ? gapThreshold({ n, flawed: flagSummary.flagged, confidence })
        : undefined;

  // Order: accuracy descending, then name, so equal scores list in a stable, readable order.
  const totals = m.correct.map((row) => count(row).k);
  const order = m.systems.map((_, s) => s).sort((x, y) => totals[y]! - totals[x]! || (m.systems[x]! < m.systems[y]! ? -1 : m.systems[x]! > m.systems[y]! ? 1 : 0));
  const rows = order.map((s) => m.correct[s]!);
  const names = order.map((s) => m.systems[s]!);
  const ranks = competitionRanks(order.map((s) => totals[s]!));
  const cleanCounts = cleanMask ? rows.map((row) => count(row, cleanMask)) : undefined;
  const cleanRanks = cleanCounts ? competitionRanks(cleanCounts.map((c) => c.k)) : undefined;
  const boot = { iterations, seed, confidence };
  // One pass over the task resamples serves the rank ranges and every pair's interval.
  const resampled = resampleCounts(rows, boot);
  const ranges = rankRanges(resampled, confidence);

  const pairs: SystemPair[] = [];
  for (let i = 0; i < rows.length; i++) {
    for (let j = i + 1; j < rows.length; j++) {
      const d = discordant(rows[i]!, rows[j]!);
      const mc = mcnemarExact(d.b, d.c);
      const pair: SystemPair = {
        a: names[i]!,
        b: names[j]!,
        rankA: ranks[i]!,
        rankB: ranks[j]!,
        difference: pairedDiffFromCounts(
          { k: totals[order[i]!]!, resampled: resampled[i]! },
          { k: totals[order[j]!]!, resampled: resampled[j]! },
          n,
          boot,
        ),
        mcnemar: mc,
        // Set below, once every pair's p-value is known (Holm).
        pHolm: NaN,
        significant: false,
      };
      if (gap) pair.exceedsThreshold = Math.abs(pair.difference.estimate) > gap.threshold + 1e-12;
      if (cleanMask && cleanCounts) {
        const dc = discordant(rows[i]!, rows[j]!, cleanMask);
        const mcc = mcnemarExact(dc.b, dc.c);
        const nc = cleanCounts[i]!.n;
        pair.clean = {
          difference: nc === 0 ? NaN : (cleanCounts[i]!.k - cleanCounts[j]!.k) / nc,
          mcnemar: mcc,
          pHolm: NaN,
          significant: false,
        };
      }
      pairs.push(pair);
    }
  }

  // One family per subset: every pair's McNemar test, Holm-adjusted, so "significant" anywhere on the page
  // (the pair table, the matrix, "tied with #1") is the same corrected criterion.
  holmAdjust(pairs.map((p) => p.mcnemar.pValue)).forEach((q, k) => {
    pairs[k]!.pHolm = q;
    pairs[k]!.significant = q < alpha;
  });
  if (cleanMask) {
    holmAdjust(pairs.map((p) => p.clean!.mcnemar.pValue)).forEach((q, k) => {
      pairs[k]!.clean!.pHolm = q;
      pairs[k]!.clean!.significant = q < alpha;
    });
  }

  // The rank-1 set answers one question (which systems are below #1?), so its family is the k − 1
  // comparisons with #1, not every pair: Holm over those alone.
  const topPairs = pairs.slice(0, Math.max(0, rows.length - 1));
  const pHolmTop = holmAdjust(topPairs.map((p) => p.mcnemar.pValue));

  const topAcc = n === 0 ? NaN : (totals[order[0]!] ?? 0) / n;
  const systems: SystemStanding[] = order.map((s, i) => {
    const k = totals[s]!;
    const standing: SystemStanding = {
      rank: ranks[i]!,
      system: names[i]!,
      tasks: n,
      correct: k,
      accuracy: wilson(k, n, confidence),
      absent: m.absent[s]!,
      missingPrediction: m.missingPrediction[s]!,
      undecided: m.undecided[s]!,
      rankRange: ranges[i]!,
    };
    if (cleanCounts && cleanRanks) {
      const c = cleanCounts[i]!;
      standing.clean = { tasks: c.n, correct: c.k, accuracy: wilson(c.k, c.n, confidence), rank: cleanRanks[i]! };
    }
    if (i > 0) {
      // Pairs are generated row-major, so (0, i) is the (i−1)-th pair.
      const p = pairs[i - 1]!;
      const q = pHolmTop[i - 1]!;
      standing.vsTop = { difference: p.difference.estimate, b: p.mcnemar.b, c: p.mcnemar.c, pValue: p.mcnemar.pValue, pHolm: q, notSignificantlyBelow: !(q < alpha), topAboveShare: p.difference.pGreater };
      if (gap) {
        standing.withinThresholdOfTop = topAcc - k / n <= gap.threshold + 1e-12;
        const bound = pairNoise(rows[0]!, rows[i]!, gap, cleanMask, confidence);
        standing.noiseBound = { ...bound, flagged: cleanMask !== undefined, within: topAcc - k / n <= bound.threshold + 1e-12 };
      }
    }
    return standing;
  });

  const result: ItemsLeaderboard = {
    tasks: n,
    systems,
    pairs,
    notSignificantlyBelowTop: systems.filter((s) => s.vsTop?.notSignificantlyBelow).map((s) => s.system),
    confidence,
    seed,
    iterations,
    methods: {
      accuracy: wilson(0, 1, confidence).method,
      difference: pairs[0]?.difference.method ?? `paired percentile bootstrap over tasks, ${iterations} resamples, seed ${seed}`,
      test: `${mcnemarExact(0, 0).method}; Holm step-down adjustment over all ${pairs.length} pairs (family-wise error ≤ ${confidencePercent(alpha)}%)`,
      vsTop: `${mcnemarExact(0, 0).method} against rank 1; Holm step-down adjustment over the ${topPairs.length} comparisons with rank 1 (family-wise error ≤ ${confidencePercent(alpha)}%)`,
      rankRange: `rank (ties share the best) over the same ${iterations} task resamples; central ${confidencePercent(confidence)}%`,
    },
  };
  if (flagSummary) result.flags = flagSummary;
  if (gap) {
    result.gap = gap;
    result.withinThresholdOfTop = systems.filter((s) => s.withinThresholdOfTop).map((s) => s.system);
    result.withinPairNoiseBoundOfTop = systems.filter((s) => s.noiseBound?.within).map((s) => s.system);
  }
  return result;
}
