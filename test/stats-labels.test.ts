import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readErrorFlags } from '../src/benchmark/error-flags.js';
import { detectorMetrics } from '../src/stats/agreement.js';
import { confusionFrom } from '../src/stats/confusion.js';
import { joinLabels, readLabelFile } from '../src/benchmark/label-files.js';
import { roganGladen } from '../src/stats/prevalence.js';
import { SHARED } from './helpers/cli.js';

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

  it('joinLabels keeps A order and lists one-sided ids', () => {
    const a = new Map([['3', true], ['1', false], ['2', true]]);
    const b = new Map([['2', false], ['9', true], ['3', true]]);
    expect(joinLabels(a, b)).toEqual({ taskIds: ['3', '2'], a: [true, true], b: [true, false], onlyInA: ['1'], onlyInB: ['9'] });
  });
});

describe('id,label CSV errors name the line of the bad row', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sqlboard-labels-'));
  // The first row's quoted note spans lines 2-4 and a blank line follows: the bad row is on line 6 (counting rows said 3).
  const body = (header: string, bad: string) => `${header},note\n1,1,"first line\nsecond line\nthird line"\n\n2,${bad},ok\n`;

  it('readLabelFile', () => {
    const f = join(dir, 'labels.csv');
    writeFileSync(f, body('task_id,label', 'maybe'));
    expect(() => readLabelFile(f)).toThrow(/labels\.csv:6: label must be 0\/1 or true\/false \(got "maybe"\)/);
    writeFileSync(f, body('task_id,label', '0'));
    expect(readLabelFile(f).labels).toEqual(new Map([['1', true], ['2', false]]));
  });

  it('readErrorFlags', () => {
    const f = join(dir, 'flags.csv');
    writeFileSync(f, body('task_id,predicted_label', '2'));
    expect(() => readErrorFlags(f)).toThrow(/flags\.csv:6: predicted_label must be 0 \(wrong gold\) or 1 \(fine\)/);
    writeFileSync(f, body('task_id,predicted_label', '0'));
    expect(readErrorFlags(f)).toEqual(new Map([['1', false], ['2', true]]));
  });
});
