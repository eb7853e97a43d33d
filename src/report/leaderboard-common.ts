import { formatPoints } from './format.js';
import type { IntervalPlot, MatrixCell } from './model.js';

/** Pieces the two leaderboard reports (from verdicts, from a published board) draw the same way. */

/** Percentage points without a sign (g*, σ_gap, gaps in titles), two decimals unless told. */
export const pts = (x: number, digits = 2): string => formatPoints(x, digits, false);

/** A k×k pairwise matrix with every cell empty; the diagonal stays so. */
export function emptyMatrix(k: number): (MatrixCell | null)[][] {
  return Array.from({ length: k }, () => Array<MatrixCell | null>(k).fill(null));
}

/** The shaded band of the interval plot: rank 1's score down to g* below it. */
export function gStarBand(topScore: number, threshold: number): NonNullable<IntervalPlot['band']> {
  return { low: topScore - threshold, high: topScore, label: `g* = ${pts(threshold)} pts below #1` };
}
