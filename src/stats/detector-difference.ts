import { detectorMetrics } from './agreement.js';
import { bootstrapIntervals, type BootstrapOptions } from './bootstrap.js';
import { cellCodes, tableOf } from './confusion.js';
import type { Interval } from './intervals.js';

/** How much better one detector is than another on a labelled sample, with its uncertainty. */
export interface DetectorDifference {
  /** F1 of ours minus F1 of theirs (error class), with a paired bootstrap interval. */
  f1: Interval;
  /** MCC of ours minus MCC of theirs. */
  mcc: Interval;
  /** Share of resamples in which ours has the higher F1 (ties count half). */
  shareBetterF1: number;
  /** Share of resamples in which ours has the higher MCC (ties count half). */
  shareBetterMcc: number;
}

const nz = (x: number): number => (Number.isFinite(x) ? x : 0);

/**
 * Paired percentile bootstrap of ours − theirs on the same labelled items. `theirs` holds one
 * detector, or several candidates of which the one with the best F1 *on each resample* is
 * taken: an oracle pick (the best single agent chosen with the labels) is re-made on every
 * resample, so the interval carries the optimism of picking the best of many on one small
 * sample instead of treating the winner as fixed in advance.
 */
export function detectorDifference(
  truth: readonly boolean[],
  ours: readonly boolean[],
  theirs: readonly (readonly boolean[])[],
  opts?: BootstrapOptions,
): DetectorDifference {
  if (theirs.length === 0) throw new RangeError('detectorDifference needs at least one detector to compare with');
  const oursCells = cellCodes(truth, ours);
  const theirCells = theirs.map((p) => cellCodes(truth, p));
  const [f1, mcc] = bootstrapIntervals(
    truth.length,
    2,
    (idx) => {
      const a = detectorMetrics(tableOf(oursCells, idx));
      // An undefined F1 or MCC (no flags, or one class only in the resample) counts as 0.
      let best = detectorMetrics(tableOf(theirCells[0]!, idx));
      for (let k = 1; k < theirCells.length; k++) {
        const m = detectorMetrics(tableOf(theirCells[k]!, idx));
        if (nz(m.f1) > nz(best.f1)) best = m;
      }
      return [nz(a.f1) - nz(best.f1), nz(a.mcc) - nz(best.mcc)];
    },
    opts,
  );
  const share = (s: Float64Array): number => {
    let w = 0;
    for (const v of s) w += v > 0 ? 1 : v === 0 ? 0.5 : 0;
    return s.length > 0 ? w / s.length : NaN;
  };
  const strip = ({ samples: _samples, ...iv }: Interval & { samples: Float64Array }): Interval => iv;
  return { f1: strip(f1!), mcc: strip(mcc!), shareBetterF1: share(f1!.samples), shareBetterMcc: share(mcc!.samples) };
}
