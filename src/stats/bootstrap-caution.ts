/**
 * Where the percentile bootstrap's interval for an agreement coefficient is known to cover less than it
 * says: at small n (few resamples of few items), and near the ceiling (the resampled statistic piles up at
 * its maximum, so the interval is skewed and too short on the low side). The thresholds are conservative
 * marks for a warning, not a correction: below them the interval should be read as optimistic.
 */
export const SMALL_N = 100;
export const NEAR_CEILING = 0.9;

export function percentileBootstrapCaution(n: number, estimate: number): string | null {
  const reasons: string[] = [];
  if (n < SMALL_N) reasons.push(`n = ${n} < ${SMALL_N}`);
  if (Number.isFinite(estimate) && estimate >= NEAR_CEILING) reasons.push(`estimate ${estimate.toFixed(3)} ≥ ${NEAR_CEILING} (near the ceiling)`);
  return reasons.length === 0 ? null : reasons.join(', ');
}
