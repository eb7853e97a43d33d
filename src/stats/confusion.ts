/** A 2×2 table: `positive` is the class being detected (e.g. "gold is wrong"). */
export interface Confusion {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

/**
 * Counts a confusion table from per-item truth and predicted labels (same order).
 * `positive` names which boolean value is the positive class, so "0 = error" files can be
 * read as booleans and scored with errors as positives.
 */
export function confusionFrom(truth: readonly boolean[], predicted: readonly boolean[], positive = true): Confusion {
  if (truth.length !== predicted.length) {
    throw new RangeError(`truth and predicted differ in length (${truth.length} vs ${predicted.length})`);
  }
  const c: Confusion = { tp: 0, fp: 0, fn: 0, tn: 0 };
  for (let i = 0; i < truth.length; i++) {
    const t = truth[i] === positive;
    const p = predicted[i] === positive;
    if (t && p) c.tp++;
    else if (!t && p) c.fp++;
    else if (t && !p) c.fn++;
    else c.tn++;
  }
  return c;
}

/**
 * Per-item cell code of a 2×2 table (0 tp, 1 fp, 2 fn, 3 tn), `true` as the positive label, so
 * bootstrap resamples are counted by tableOf without re-reading the labels.
 */
export function cellCodes(truth: readonly boolean[], predicted: readonly boolean[]): Uint8Array {
  const cells = new Uint8Array(truth.length);
  for (let i = 0; i < truth.length; i++) cells[i] = truth[i] ? (predicted[i] ? 0 : 2) : predicted[i] ? 1 : 3;
  return cells;
}

/** The confusion table of the items at `idx` (a resample's indices into `cells`). */
export function tableOf(cells: Uint8Array, idx: Uint32Array): Confusion {
  const t = [0, 0, 0, 0];
  for (let i = 0; i < idx.length; i++) t[cells[idx[i]!]!]!++;
  return { tp: t[0]!, fp: t[1]!, fn: t[2]!, tn: t[3]! };
}

/** Rejects tables that are not non-negative integer counts; a programming error, not a user one. */
export function checkConfusion(c: Confusion): void {
  for (const k of ['tp', 'fp', 'fn', 'tn'] as const) {
    if (!Number.isInteger(c[k]) || c[k] < 0) throw new RangeError(`${k} must be a non-negative integer (got ${c[k]})`);
  }
}
