/**
 * Kendall's tau-b between paired scores, O(n²) over pairs:
 * (C − D)/√((n0 − n1)(n0 − n2)), n0 = n(n−1)/2, n1/n2 = pairs tied in x / in y.
 * tau-b (not tau-a) so that tied leaderboard scores do not pull the value toward 0.
 * NaN when n < 2 or when either side is constant (denominator 0).
 */
export function kendallTauB(x: readonly number[], y: readonly number[]): number {
  if (x.length !== y.length) throw new RangeError(`x and y differ in length (${x.length} vs ${y.length})`);
  const n = x.length;
  let concordant = 0;
  let discordant = 0;
  let tiesX = 0;
  let tiesY = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const dx = Math.sign(x[i]! - x[j]!);
      const dy = Math.sign(y[i]! - y[j]!);
      if (dx === 0) tiesX++;
      if (dy === 0) tiesY++;
      if (dx !== 0 && dy !== 0) {
        if (dx === dy) concordant++;
        else discordant++;
      }
    }
  }
  const n0 = (n * (n - 1)) / 2;
  const denom = Math.sqrt((n0 - tiesX) * (n0 - tiesY));
  return denom === 0 ? NaN : (concordant - discordant) / denom;
}
