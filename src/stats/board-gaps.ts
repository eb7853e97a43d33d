import { gapThreshold, expectedKendallTau, type GapResult } from './gap.js';
import { wilson, type Interval } from './intervals.js';
import { kendallTauB } from './kendall.js';

/** A published leaderboard row, scores as fractions (see benchmark/board-csv.ts). */
export interface BoardEntry {
  name: string;
  dev: number;
  test: number;
}

export interface BoardAnalysisInput {
  entries: BoardEntry[];
  /** How many top systems (by test) to analyse; default 30. */
  top?: number;
  /** Benchmark size N behind the scores. */
  n: number;
  /** Flawed tasks e, or the error rate e/N: exactly one. */
  flawed?: number;
  errorRate?: number;
  /** Default 0.95: one-sided for g*, two-sided for the Wilson bars. */
  confidence?: number;
}

export interface BoardSystem {
  /** Competition rank by test ("1224": equal scores share a rank). */
  rank: number;
  name: string;
  dev: number;
  test: number;
  devRank: number;
  /**
   * Sampling interval of the test score as if measured on N tasks (Wilson at k = round(test·N)):
   * the published percentages carry no counts, so this is what the plot's bars show.
   */
  testInterval: Interval;
  /** test(rank 1) − test(this). */
  gapToTop: number;
  withinThresholdOfTop: boolean;
}

export interface BoardPair {
  a: string;
  b: string;
  rankA: number;
  rankB: number;
  /** test(a) − test(b) ≥ 0: a is ranked at or above b. */
  gap: number;
  /** gap > g*: the order survives annotation noise at the chosen confidence. */
  exceedsThreshold: boolean;
}

export interface BoardAnalysis {
  /** σ_gap and g* (`gap.threshold`), fractions. */
  gap: GapResult;
  systems: BoardSystem[];
  pairs: BoardPair[];
  /** Names of the systems below rank 1 whose test gap to it is ≤ g* (within the noise bound; not a tie). */
  withinNoiseBoundOfTop: string[];
  exceedingPairs: number;
  /** Observed Kendall tau-b between the dev and test scores of the analysed systems. */
  tauB: number;
  /** SALUS's expected tau under annotation noise, from the dev gaps and σ_gap. */
  expectedTau: number;
  /**
   * The same bound on dev gaps, where N and e were measured (SALUS's own comparison): the analysed systems'
   * dev leader, who is within g* of it on dev, and how many pairs' dev gaps exceed g*.
   */
  dev: { top: string | null; withinNoiseBoundOfTop: string[]; exceedingPairs: number };
  /** Entries available and analysed (top-K of them). */
  available: number;
  analysed: number;
}

/** 1 + number of strictly better scores: ties share the best rank. */
export function competitionRanks(scores: readonly number[]): number[] {
  return scores.map((s) => 1 + scores.filter((t) => t > s).length);
}

/**
 * Which gaps on a published leaderboard exceed SALUS's noise bound g*, which systems are within it
 * of rank 1, and how well the dev ranking predicts the test ranking (observed
 * tau-b) compared with what annotation noise alone allows (expected tau).
 * Systems are ordered by test, then dev, then input order (stable).
 */
export function analyseBoard(input: BoardAnalysisInput): BoardAnalysis {
  const confidence = input.confidence ?? 0.95;
  const top = input.top ?? 30;
  if (!Number.isInteger(top) || top < 1) throw new RangeError(`top must be a positive integer (got ${top})`);
  // N = 0 would make every gap "significant" against a NaN threshold; a board always has tasks.
  if (!Number.isInteger(input.n) || input.n < 1) throw new RangeError(`n must be a positive integer (got ${input.n})`);
  const gap = gapThreshold({ n: input.n, flawed: input.flawed, errorRate: input.errorRate, confidence });
  const sorted = input.entries
    .map((e, i) => ({ e, i }))
    .sort((x, y) => y.e.test - x.e.test || y.e.dev - x.e.dev || x.i - y.i)
    .slice(0, top)
    .map((x) => x.e);
  const testRanks = competitionRanks(sorted.map((e) => e.test));
  const devRanks = competitionRanks(sorted.map((e) => e.dev));
  const best = sorted[0]?.test ?? NaN;
  const systems: BoardSystem[] = sorted.map((e, i) => {
    const k = Math.min(input.n, Math.max(0, Math.round(e.test * input.n)));
    const gapToTop = best - e.test;
    return {
      rank: testRanks[i]!,
      name: e.name,
      dev: e.dev,
      test: e.test,
      devRank: devRanks[i]!,
      testInterval: { ...wilson(k, input.n, confidence), estimate: e.test },
      gapToTop,
      // Epsilon for floating point: a difference of two decimals can land a hair above a g* it equals.
      withinThresholdOfTop: gapToTop <= gap.threshold + 1e-12,
    };
  });
  const pairs: BoardPair[] = [];
  for (let i = 0; i < systems.length; i++) {
    for (let j = i + 1; j < systems.length; j++) {
      const a = systems[i]!;
      const b = systems[j]!;
      const g = a.test - b.test;
      pairs.push({
        a: a.name,
        b: b.name,
        rankA: a.rank,
        rankB: b.rank,
        gap: g,
        exceedsThreshold: g > gap.threshold + 1e-12,
      });
    }
  }
  const byDev = [...sorted].sort((x, y) => y.dev - x.dev);
  const devBest = byDev[0]?.dev ?? NaN;
  let devExceeding = 0;
  for (let i = 0; i < sorted.length; i++) for (let j = i + 1; j < sorted.length; j++) if (Math.abs(sorted[i]!.dev - sorted[j]!.dev) > gap.threshold + 1e-12) devExceeding++;
  return {
    gap,
    dev: {
      top: byDev[0]?.name ?? null,
      withinNoiseBoundOfTop: byDev.slice(1).filter((e) => devBest - e.dev <= gap.threshold + 1e-12).map((e) => e.name),
      exceedingPairs: devExceeding,
    },
    systems,
    pairs,
    withinNoiseBoundOfTop: systems.slice(1).filter((s) => s.withinThresholdOfTop).map((s) => s.name),
    exceedingPairs: pairs.filter((p) => p.exceedsThreshold).length,
    tauB: kendallTauB(sorted.map((e) => e.dev), sorted.map((e) => e.test)),
    expectedTau: expectedKendallTau(sorted.map((e) => e.dev), gap.sigmaGap),
    available: input.entries.length,
    analysed: sorted.length,
  };
}
