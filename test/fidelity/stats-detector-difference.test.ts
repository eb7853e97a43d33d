import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectorDifference } from '../../src/stats/detector-difference.js';
import { detectorMetrics } from '../../src/stats/agreement.js';
import { confusionFrom } from '../../src/stats/confusion.js';
import { SHARED } from './helpers/shared-data.js';

/** SALUS's Spider ground truth and its own flags, both keyed by task id (0 = gold error). */
function read(file: string): Map<string, boolean> {
  const rows = readFileSync(file, 'utf8').trim().split(/\r?\n/).slice(1);
  return new Map(rows.map((l) => l.split(',')).map(([id, label]) => [id!.trim(), label!.trim() === '0']));
}

describe('detectorDifference (paired bootstrap of ours − theirs)', () => {
  const gt = read(join(SHARED, 'salus', 'ground_truth', 'GT_RS_200_spider.csv'));
  const salus = read(join(SHARED, 'salus', 'predictions', 'frontier_spider.csv'));
  const ids = [...gt.keys()];
  const truth = ids.map((id) => gt.get(id)!);
  const flags = ids.map((id) => salus.get(id)!);
  const none = ids.map(() => false);
  const everything = ids.map(() => true);

  it('is exactly zero against itself, with the audit ahead in half the resamples (ties count half)', () => {
    const d = detectorDifference(truth, flags, [flags]);
    expect([d.f1.estimate, d.f1.low, d.f1.high, d.mcc.estimate, d.mcc.low, d.mcc.high]).toEqual([0, 0, 0, 0, 0, 0]);
    expect(d.shareBetterF1).toBe(0.5);
  });

  it("puts SALUS's flags clearly ahead of flagging everything, with the estimate from the full sample", () => {
    const d = detectorDifference(truth, flags, [everything]);
    const f1 = (p: boolean[]): number => detectorMetrics(confusionFrom(truth, p)).f1;
    expect(d.f1.estimate).toBeCloseTo(f1(flags) - f1(everything), 12);
    expect(d.f1.low).toBeGreaterThan(0.3);
    expect(d.f1.low).toBeLessThan(d.f1.estimate);
    expect(d.f1.high).toBeGreaterThan(d.f1.estimate);
    expect(d.shareBetterF1).toBe(1);
    // Flagging everything has no MCC (one predicted class): it counts as 0.
    expect(d.mcc.estimate).toBeCloseTo(detectorMetrics(confusionFrom(truth, flags)).mcc, 12);
  });

  it('re-makes a hindsight pick on every resample: a pool that contains ours is never beaten', () => {
    const d = detectorDifference(truth, flags, [none, everything, flags]);
    expect(d.f1.high).toBe(0);
    expect(d.mcc.high).toBeLessThanOrEqual(0);
    expect(d.shareBetterF1).toBeLessThanOrEqual(0.5);
  });

  it('is deterministic for a seed and refuses an empty pool', () => {
    const a = detectorDifference(truth, flags, [everything], { seed: 7, iterations: 500 });
    const b = detectorDifference(truth, flags, [everything], { seed: 7, iterations: 500 });
    expect(a).toEqual(b);
    expect(() => detectorDifference(truth, flags, [])).toThrow(/at least one detector/);
  });
});
