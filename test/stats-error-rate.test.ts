import { describe, expect, it } from 'vitest';
import { crossFittedErrorRate, errorRateShift, type LabelledSample } from '../src/stats/error-rate.js';
import { createRng } from '../src/stats/rng.js';

/**
 * A synthetic benchmark whose true error rate is known: N tasks, a share wrong, a detector score
 * that separates them only partly (and is deliberately miscalibrated: its scale says nothing about
 * P(error)), and a simple random sample of labelled tasks.
 */
function population(seed: number, N = 1000, rate = 0.3) {
  const rng = createRng(seed);
  const normal = (): number => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
  const y = Array.from({ length: N }, () => +(rng() < rate));
  const score = y.map((v) => 5 * (v ? 1.5 : 0) + 5 * normal() - 7);
  return { y, score, rng };
}

function sample(y: readonly number[], rng: () => number, n: number): LabelledSample {
  const idx = Array.from(y, (_, i) => i);
  for (let i = idx.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [idx[i], idx[j]] = [idx[j]!, idx[i]!];
  }
  const index = idx.slice(0, n);
  return { index, y: index.map((i) => y[i]!), ids: index.map((i) => `t${i}`) };
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('cross-fitted error-rate estimate', () => {
  it("covers a benchmark's true error rate in about 95% of labelled samples, without bias, from a miscalibrated score", () => {
    let covered = 0;
    const errors: number[] = [];
    const widthRatio: number[] = [];
    const runs = 200;
    for (let s = 1; s <= runs; s++) {
      const { y, score, rng } = population(s);
      const truth = mean(y);
      const lab = sample(y, rng, 200);
      const e = crossFittedErrorRate(score, lab, { seed: s });
      if (e.ciLow <= truth && truth <= e.ciHigh) covered++;
      errors.push(e.estimate - truth);
      // The labelled share alone (a binomial proportion with the same correction) is the estimator without a model.
      const p = e.sampleShare;
      widthRatio.push(e.se / Math.sqrt(((1 - 200 / 1000) * p * (1 - p)) / 199));
    }
    expect(covered / runs).toBeGreaterThan(0.9);
    expect(covered / runs).toBeLessThan(0.99);
    expect(Math.abs(mean(errors))).toBeLessThan(0.005);
    // The score earns its place: the interval is narrower than the labelled share's.
    expect(mean(widthRatio)).toBeLessThan(0.95);
  });

  it('pairs a before/after shift over the same labelled tasks: the interval covers the true shift and is narrower than two independent ones', () => {
    let covered = 0;
    const runs = 100;
    const ratio: number[] = [];
    for (let s = 1; s <= runs; s++) {
      const { y, score, rng } = population(s);
      const lab = sample(y, rng, 200);
      // Inject: 15% of tasks become wrong and the detector sees them well.
      const y2 = [...y];
      const score2 = [...score];
      for (let i = 0; i < y.length; i++) {
        if (rng() < 0.15) {
          y2[i] = 1;
          score2[i] = 10 + rng();
        }
      }
      const lab2 = { ...lab, y: lab.index.map((i) => y2[i]!) };
      const before = crossFittedErrorRate(score, lab, { seed: 3 });
      const after = crossFittedErrorRate(score2, lab2, { seed: 3 });
      const shift = errorRateShift(before, after);
      const truth = mean(y2) - mean(y);
      expect(shift.pairs).toBe(200);
      expect(shift.estimate).toBeCloseTo(after.modelTerm + after.correction - before.modelTerm - before.correction, 12);
      if (shift.ciLow <= truth && truth <= shift.ciHigh) covered++;
      ratio.push(shift.se / Math.hypot(before.se, after.se));
    }
    expect(covered / runs).toBeGreaterThan(0.88);
    expect(mean(ratio)).toBeLessThan(0.8);
  });

  it('is deterministic for a seed and says why it has no estimate from too few labels', () => {
    const { y, score, rng } = population(5);
    const lab = sample(y, rng, 100);
    const a = crossFittedErrorRate(score, lab, { seed: 9 });
    const b = crossFittedErrorRate(score, lab, { seed: 9 });
    expect(b.estimate).toBe(a.estimate);
    expect(b.ciHigh).toBe(a.ciHigh);
    const few = crossFittedErrorRate(score, { index: [1, 2, 3], y: [0, 1, 0], ids: ['a', 'b', 'c'] });
    expect(few.estimate).toBeNaN();
    expect(few.reason).toMatch(/at least 4/);
  });
});
