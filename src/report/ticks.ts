/** "Nice" axis ticks (steps of 1, 2 or 5 × 10^k) covering [lo, hi], about `target` of them. */
export function niceTicks(lo: number, hi: number, target = 6): { ticks: number[]; lo: number; hi: number } {
  if (!(hi > lo)) {
    const pad = lo === 0 ? 0.01 : Math.abs(lo) * 0.05;
    lo -= pad;
    hi += pad;
  }
  const raw = (hi - lo) / target;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const start = Math.floor(lo / step) * step;
  const end = Math.ceil(hi / step) * step;
  const ticks: number[] = [];
  // Rounding to the step's precision keeps 0.30000000000000004 out of the labels.
  const decimals = Math.max(0, -Math.floor(Math.log10(step)) + 1);
  for (let v = start; v <= end + step / 2; v += step) ticks.push(Number(v.toFixed(decimals)));
  return { ticks, lo: start, hi: end };
}
