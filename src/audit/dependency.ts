/**
 * Label-free structure learning for the label model's agent columns.
 *
 * Dawid–Skene assumes the agents err independently given the true class. Agents from one
 * family (one model at several sizes, a system with and without self-consistency, prompts
 * from one paper) break that: they repeat each other's mistakes, and a naive-Bayes model
 * counts one mistake several times. As in Snorkel's structure learning, the dependencies are
 * estimated from the votes alone: within the class "gold right" (weighted by the label
 * model's posterior), an agent's disagreement is its own mistake, so two independent agents'
 * disagreements are uncorrelated there; a clearly positive residual correlation is shared
 * method. (The error class is small and mixes errors every agent sees with errors none sees,
 * so correlation there measures how visible an error is, not kinship.) Agents whose residual
 * correlation is an outlier among all pairs, and beyond chance, are grouped and then counted as one voter.
 */
import { normalQuantile } from '../stats/normal.js';
import { voteCorrelation } from './vote-correlation.js';

/** Residual correlation of the columns' votes within the class "gold right", weighting task i by 1 - posterior[i]; 0 for a constant column. */
export function residualCorrelation(votes: Int8Array, m: number, columns: readonly number[], posterior: Float64Array): number[][] {
  const R = voteCorrelation(votes, m, columns, (i) => 1 - posterior[i]!);
  return R.map((row, a) => row.map((r, b) => (a === b ? 1 : Number.isNaN(r) ? 0 : r)));
}

/** Effective sample size of the weights (Kish): how many equally weighted tasks the residual correlation rests on. */
export function effectiveSize(posterior: Float64Array): number {
  let s = 0;
  let s2 = 0;
  for (const p of posterior) {
    s += 1 - p;
    s2 += (1 - p) * (1 - p);
  }
  return s2 > 0 ? (s * s) / s2 : 0;
}

/**
 * Groups of dependent columns: average-linkage agglomeration of the residual correlation
 * matrix, merging while the closest pair of groups correlates above both
 * - Tukey's upper fence (Q3 + 1.5·IQR) of all pairwise correlations: an outlier among the
 *   pairs, so agents that all share the benchmark's conventions are not one family; and
 * - the median pair plus what chance allows: Fisher's z of the gap above the median exceeds
 *   the one-sided Bonferroni quantile for all pairs at α = 0.01, with standard error
 *   1/√(nEff − 3). Without it the fence alone grouped some of 23 independent agents in most
 *   random seeds (an outlier among 253 pairs is expected by chance).
 * No tuned threshold. Singletons are groups too; groups and members are in first-member order.
 */
export function dependentGroups(R: readonly (readonly number[])[], nEff: number): number[][] {
  const k = R.length;
  const off: number[] = [];
  for (let a = 0; a < k; a++) for (let b = a + 1; b < k; b++) off.push(R[a]![b]!);
  let groups = Array.from({ length: k }, (_, a) => [a]);
  if (off.length < 4 || !(nEff > 3)) return groups;
  off.sort((x, y) => x - y);
  const q = (p: number): number => off[Math.floor(p * (off.length - 1))]!;
  const fence = q(0.75) + 1.5 * (q(0.75) - q(0.25));
  const clip = (r: number): number => Math.max(-0.999999, Math.min(0.999999, r));
  const chance = Math.tanh(Math.atanh(clip(q(0.5))) + normalQuantile(1 - 0.01 / off.length) / Math.sqrt(nEff - 3));
  const threshold = Math.max(fence, chance);
  for (;;) {
    let best = -Infinity;
    let bx = -1;
    let by = -1;
    for (let x = 0; x < groups.length; x++)
      for (let y = x + 1; y < groups.length; y++) {
        let s = 0;
        for (const a of groups[x]!) for (const b of groups[y]!) s += R[a]![b]!;
        const avg = s / (groups[x]!.length * groups[y]!.length);
        if (avg > best) [best, bx, by] = [avg, x, y];
      }
    if (bx < 0 || best <= threshold) break;
    groups[bx] = [...groups[bx]!, ...groups[by]!].sort((a, b) => a - b);
    groups = groups.filter((_, g) => g !== by);
  }
  return groups.sort((x, y) => x[0]! - y[0]!);
}
