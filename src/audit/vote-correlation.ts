/**
 * Weighted Pearson correlation of vote columns (+1 / −1, abstain = 0) over the tasks, task i
 * counting `weight(i)`. One routine for the LF statistics (every task alike) and for the
 * label-free structure learning (tasks weighted by P(gold right)). NaN where a column is
 * constant under the weights, 1 on the diagonal otherwise.
 */
export function voteCorrelation(votes: Int8Array, m: number, columns: readonly number[], weight: (i: number) => number): number[][] {
  const n = votes.length / m;
  const w = Float64Array.from({ length: n }, (_, i) => weight(i));
  let wTot = 0;
  for (let i = 0; i < n; i++) wTot += w[i]!;
  const mean = columns.map((j) => {
    let s = 0;
    for (let i = 0; i < n; i++) s += w[i]! * votes[i * m + j]!;
    return s / wTot;
  });
  const cov = (a: number, b: number): number => {
    let s = 0;
    for (let i = 0; i < n; i++) s += w[i]! * (votes[i * m + columns[a]!]! - mean[a]!) * (votes[i * m + columns[b]!]! - mean[b]!);
    return s / wTot;
  };
  const sd = columns.map((_, a) => Math.sqrt(Math.max(0, cov(a, a))));
  const R = columns.map((_, a) => columns.map((_, b) => (a === b && sd[a]! > 0 ? 1 : NaN)));
  for (let a = 0; a < columns.length; a++) {
    for (let b = a + 1; b < columns.length; b++) {
      if (!(sd[a]! > 0 && sd[b]! > 0)) continue;
      R[a]![b] = R[b]![a] = cov(a, b) / (sd[a]! * sd[b]!);
    }
  }
  return R;
}
