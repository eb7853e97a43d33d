import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectorMetrics } from '../../src/stats/agreement.js';
import { confusionFrom } from '../../src/stats/confusion.js';
import { joinLabels, readLabelFile } from '../../src/benchmark/label-files.js';
import { roganGladen } from '../../src/stats/prevalence.js';
import { SHARED } from './helpers/shared-data.js';

const SALUS = join(SHARED, 'salus');

/** Detector table with "0 = wrong gold" as the positive class, truth from the labelled sample. */
function table(predictions: string, truth: string) {
  const pred = readLabelFile(join(SALUS, 'predictions', predictions));
  const gt = readLabelFile(join(SALUS, 'ground_truth', truth));
  const j = joinLabels(gt.labels, pred.labels);
  return { j, pred, c: confusionFrom(j.a, j.b, false) };
}

describe('SALUS label files, joined on task id (SOURCES.md figures)', () => {
  it('frontier vs BIRD_CLEAN_xs and GT_RS_200', () => {
    const clean = table('frontier.csv', 'BIRD_CLEAN_xs.csv');
    expect(clean.j.taskIds.length).toBe(298);
    expect(clean.j.onlyInA).toEqual([]);
    expect(clean.c).toEqual({ tp: 154, fp: 15, fn: 12, tn: 117 });
    const rs = table('frontier.csv', 'GT_RS_200.csv');
    expect(rs.c).toEqual({ tp: 62, fp: 15, fn: 6, tn: 117 });
    expect(rs.pred.labels.size).toBe(1534);
    expect(rs.pred.source).toBe('CSV column predicted_label');
    // Issue 3's prevalence figure from the files themselves: 656 flags among 1,534.
    const flagged = [...rs.pred.labels.values()].filter((v) => !v).length;
    expect(flagged).toBe(656);
    const r = roganGladen({ n: rs.pred.labels.size, flagged, ...rs.c });
    expect(r.estimate).toBeCloseTo(0.393, 3);
  });

  it('legacy, November (unsorted file) and Spider detectors', () => {
    expect(table('legacy.csv', 'BIRD_CLEAN_xs.csv').c).toEqual({ tp: 143, fp: 31, fn: 23, tn: 101 });
    expect(table('legacy.csv', 'GT_RS_200.csv').c).toEqual({ tp: 58, fp: 31, fn: 10, tn: 101 });
    const nov = detectorMetrics(table('frontier_november.csv', 'GT_RS_200_nov_bird.csv').c);
    expect(nov.recall).toBeCloseTo(59 / 69, 14);
    expect(1 - nov.specificity).toBeCloseTo(12 / 131, 14);
    const spider = table('frontier_spider.csv', 'GT_RS_200_spider.csv');
    expect(spider.pred.labels.size).toBe(1034);
    const m = detectorMetrics(spider.c);
    expect(m.recall).toBeCloseTo(56 / 60, 14);
    expect(1 - m.specificity).toBeCloseTo(12 / 140, 14);
  });
});
