import type { LfFamily, VoteMatrix } from './lfs/index.js';
import { voteCorrelation } from './vote-correlation.js';

export interface LfStat {
  name: string;
  family: LfFamily;
  doc: string;
  /** Share of tasks it votes on. */
  coverage: number;
  /** Share of tasks it votes on together with at least one other LF. */
  overlap: number;
  /** Share of tasks it votes on while another LF votes the other way. */
  conflict: number;
  /** Of its votes, the share that say "error". */
  errorVoteShare: number;
  /** Label-model estimate of P(right | it votes); NaN when not fitted. */
  estimatedAccuracy: number;
}

export interface FamilyCorrelation {
  family: LfFamily;
  /** Mean Pearson correlation of vote vectors over pairs inside the family. */
  within: number;
  /** Mean over pairs with one LF inside and one outside. */
  cross: number;
}

export function lfStatistics(L: VoteMatrix, accuracy: readonly number[]): { lfs: LfStat[]; families: FamilyCorrelation[] } {
  const { n, m, votes } = L;
  const lfs = L.lfs.map((lf, j) => {
    let cov = 0;
    let ovl = 0;
    let cnf = 0;
    let err = 0;
    for (let i = 0; i < n; i++) {
      const v = votes[i * m + j]!;
      if (v === 0) continue;
      cov++;
      if (v < 0) err++;
      let other = false;
      let opposed = false;
      for (let k = 0; k < m; k++) {
        if (k === j) continue;
        const w = votes[i * m + k]!;
        if (w !== 0) other = true;
        if (w === -v) opposed = true;
      }
      if (other) ovl++;
      if (opposed) cnf++;
    }
    return {
      name: lf.name,
      family: lf.family,
      doc: lf.doc,
      coverage: n ? cov / n : 0,
      overlap: n ? ovl / n : 0,
      conflict: n ? cnf / n : 0,
      errorVoteShare: cov ? err / cov : 0,
      estimatedAccuracy: accuracy[j] ?? NaN,
    };
  });
  const corr = voteCorrelation(votes, m, L.lfs.map((_, j) => j), () => 1);
  const families = [...new Set(L.lfs.map((l) => l.family))].map((family) => {
    let wSum = 0;
    let wN = 0;
    let cSum = 0;
    let cN = 0;
    for (let a = 0; a < m; a++) {
      for (let b = a + 1; b < m; b++) {
        const r = corr[a]![b]!;
        if (Number.isNaN(r)) continue;
        const inA = L.lfs[a]!.family === family;
        const inB = L.lfs[b]!.family === family;
        if (inA && inB) {
          wSum += r;
          wN++;
        } else if (inA || inB) {
          cSum += r;
          cN++;
        }
      }
    }
    return { family, within: wN ? wSum / wN : NaN, cross: cN ? cSum / cN : NaN };
  });
  return { lfs, families };
}
