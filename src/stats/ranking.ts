import { bootstrapIntervals, type BootstrapOptions } from './bootstrap.js';
import type { Interval } from './intervals.js';

/**
 * How well a score ranks positives (e.g. known wrong gold) above negatives: AUC (the
 * Mann–Whitney probability that a random positive outscores a random negative, ties counting
 * half) and precision among the k highest scores. Items are referred to by index so that a
 * bootstrap resample (indices with repetition) can be scored without copying.
 */

/** AUC of `score` for `truth` over the items `idx` (default all); NaN without both classes. */
export function auc(score: ArrayLike<number>, truth: ArrayLike<boolean>, idx?: ArrayLike<number>): number {
  const items = idx ?? Uint32Array.from({ length: score.length }, (_, i) => i);
  const order = Array.from(items).sort((a, b) => score[a]! - score[b]!);
  // Mid-ranks over tied scores; AUC = (sum of positives' ranks − P(P+1)/2) / (P·N).
  let pos = 0;
  let rankSum = 0;
  for (let s = 0; s < order.length; ) {
    let e = s;
    while (e + 1 < order.length && score[order[e + 1]!] === score[order[s]!]) e++;
    const mid = (s + e) / 2 + 1;
    for (let k = s; k <= e; k++) {
      if (truth[order[k]!]) {
        pos++;
        rankSum += mid;
      }
    }
    s = e + 1;
  }
  const neg = order.length - pos;
  return pos === 0 || neg === 0 ? NaN : (rankSum - (pos * (pos + 1)) / 2) / (pos * neg);
}

/**
 * Share of positives among the k highest-scoring items of `idx` (default all); items tied
 * with the k-th count by their share of the remaining places, so a score with mass ties
 * gets the precision a random order among them would give.
 */
export function precisionAtK(score: ArrayLike<number>, truth: ArrayLike<boolean>, k: number, idx?: ArrayLike<number>): number {
  const items = Array.from(idx ?? Uint32Array.from({ length: score.length }, (_, i) => i));
  if (k <= 0 || items.length === 0) return NaN;
  k = Math.min(k, items.length);
  items.sort((a, b) => score[b]! - score[a]!);
  const cut = score[items[k - 1]!]!;
  let above = 0;
  let posAbove = 0;
  let tied = 0;
  let posTied = 0;
  for (const i of items) {
    if (score[i]! > cut) {
      above++;
      if (truth[i]) posAbove++;
    } else if (score[i] === cut) {
      tied++;
      if (truth[i]) posTied++;
    }
  }
  return (posAbove + ((k - above) * posTied) / tied) / k;
}

/** Items sharing a score with at least one other item: how far a score is from a full ranking. */
export function tiedShare(score: ArrayLike<number>): number {
  const counts = new Map<number, number>();
  for (let i = 0; i < score.length; i++) counts.set(score[i]!, (counts.get(score[i]!) ?? 0) + 1);
  let tied = 0;
  for (const c of counts.values()) if (c > 1) tied += c;
  return score.length === 0 ? NaN : tied / score.length;
}

export interface RankingDifference {
  auc: Interval;
  precisionAtK: Interval;
  /** Share of resamples in which ours has the higher AUC (ties count half). */
  shareBetterAuc: number;
}

/**
 * Paired bootstrap over items of ours − theirs in AUC and precision at k (k scaled to each
 * resample as the share k/n). Several `theirs` = an oracle pick: the one with the best AUC on
 * each resample (the best single agent chosen in hindsight is re-chosen every time).
 */
export function rankingDifference(
  truth: readonly boolean[],
  ours: ArrayLike<number>,
  theirs: readonly ArrayLike<number>[],
  k: number,
  opts?: BootstrapOptions,
): RankingDifference {
  if (theirs.length === 0) throw new RangeError('rankingDifference needs at least one score to compare with');
  const nz = (x: number): number => (Number.isFinite(x) ? x : 0);
  const [a, p] = bootstrapIntervals(
    truth.length,
    2,
    (idx) => {
      let best = theirs[0]!;
      let bestAuc = nz(auc(best, truth, idx));
      for (let j = 1; j < theirs.length; j++) {
        const v = nz(auc(theirs[j]!, truth, idx));
        if (v > bestAuc) [best, bestAuc] = [theirs[j]!, v];
      }
      return [nz(auc(ours, truth, idx)) - bestAuc, nz(precisionAtK(ours, truth, k, idx)) - nz(precisionAtK(best, truth, k, idx))];
    },
    opts,
  );
  let w = 0;
  for (const v of a!.samples) w += v > 0 ? 1 : v === 0 ? 0.5 : 0;
  const strip = ({ samples: _s, ...iv }: Interval & { samples: Float64Array }): Interval => iv;
  return { auc: strip(a!), precisionAtK: strip(p!), shareBetterAuc: a!.samples.length > 0 ? w / a!.samples.length : NaN };
}
