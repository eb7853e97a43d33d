/**
 * Holm's step-down adjustment (Holm 1979) of a family of p-values: sort ascending, multiply the i-th
 * smallest (0-based) by m − i, carry the running maximum so adjusted p-values keep the order of the raw
 * ones, cap at 1. Rejecting where the adjusted p < α keeps the family-wise error rate at α for any
 * dependence between the tests — chosen over Benjamini–Hochberg because "A beats B" claims on a
 * leaderboard are read one by one, not as a discovery rate.
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((p, i) => [p, i] as const).sort((a, b) => a[0] - b[0]);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach(([p, i], rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[i] = running;
  });
  return adjusted;
}
