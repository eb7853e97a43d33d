/**
 * The high-confidence training set: the k tasks the label model is surest are wrong and the
 * k it is surest are right (k = 250 at N = 1,534, scaled with N), pseudo-labelled by it.
 * Only label-model posteriors go in — never a human label.
 */
export interface HighConfidenceSet {
  /** Task indices. */
  index: number[];
  /** Pseudo-label per entry of `index`: 1 = gold wrong, 0 = gold right. */
  y: number[];
  k: number;
}

export function defaultK(n: number): number {
  return Math.max(10, Math.round((250 * n) / 1534));
}

/** `exclude[i]` keeps task i out (e.g. decisive tasks, which say nothing about the agents). */
export function highConfidenceSet(posterior: Float64Array, k: number = defaultK(posterior.length), exclude?: readonly boolean[]): HighConfidenceSet {
  const order = Array.from(posterior, (_, i) => i).filter((i) => !exclude?.[i]);
  // Ties (tasks with identical vote patterns) break by index: deterministic.
  order.sort((a, b) => posterior[b]! - posterior[a]! || a - b);
  const errors = order.filter((i) => posterior[i]! > 0.5);
  const rights = order.filter((i) => posterior[i]! <= 0.5).reverse();
  const kErr = Math.min(k, errors.length);
  const kOk = Math.min(k, rights.length);
  const index = [...errors.slice(0, kErr), ...rights.slice(0, kOk)];
  const y = [...new Array<number>(kErr).fill(1), ...new Array<number>(kOk).fill(0)];
  return { index, y, k };
}
