import type { LfFamily, VoteMatrix } from './lfs/index.js';

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
  const corr = pairwiseCorrelation(L);
  const families = [...new Set(L.lfs.map((l) => l.family))].map((family) => {
    let wSum = 0;
    let wN = 0;
    let cSum = 0;
    let cN = 0;
    for (let a = 0; a < m; a++) {
      for (let b = a + 1; b < m; b++) {
        const r = corr[a * m + b]!;
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

/** Pearson correlation of every pair of LF vote columns (abstain = 0); NaN for a constant column. */
function pairwiseCorrelation(L: VoteMatrix): Float64Array {
  const { n, m, votes } = L;
  const mean = new Float64Array(m);
  const sd = new Float64Array(m);
  for (let j = 0; j < m; j++) {
    let s = 0;
    let s2 = 0;
    for (let i = 0; i < n; i++) {
      const v = votes[i * m + j]!;
      s += v;
      s2 += v * v;
    }
    mean[j] = s / n;
    sd[j] = Math.sqrt(Math.max(0, s2 / n - (s / n) ** 2));
  }
  const out = new Float64Array(m * m).fill(NaN);
  for (let a = 0; a < m; a++) {
    for (let b = a + 1; b < m; b++) {
      if (sd[a] === 0 || sd[b] === 0) continue;
      let s = 0;
      for (let i = 0; i < n; i++) s += votes[i * m + a]! * votes[i * m + b]!;
      out[a * m + b] = (s / n - mean[a]! * mean[b]!) / (sd[a]! * sd[b]!);
    }
  }
  return out;
}
