import { describe, expect, it } from 'vitest';
import { confusionFrom } from '../src/stats/confusion.js';
import { agreementWithCI, cohenKappa, detectorMetrics, mcc } from '../src/stats/agreement.js';
import { expectedKendallTau, gapThreshold, outperformanceProbability } from '../src/stats/gap.js';
import { roganGladen } from '../src/stats/prevalence.js';

describe('confusion tables', () => {
  it('counts by the chosen positive class', () => {
    const truth = [true, true, false, false, true];
    const pred = [true, false, true, false, true];
    expect(confusionFrom(truth, pred)).toEqual({ tp: 2, fp: 1, fn: 1, tn: 1 });
    // "false = error" files: errors are the positives.
    expect(confusionFrom(truth, pred, false)).toEqual({ tp: 1, fp: 1, fn: 1, tn: 2 });
    expect(() => confusionFrom([true], [])).toThrow(RangeError);
  });
});

describe('detector metrics (published SALUS figures)', () => {
  it('frontier vs BIRD_CLEAN_xs, 154/15/12/117', () => {
    const m = detectorMetrics({ tp: 154, fp: 15, fn: 12, tn: 117 });
    expect(m.n).toBe(298);
    expect(m.precision).toBeCloseTo(0.9112, 4);
    expect(m.recall).toBeCloseTo(0.9277, 4);
    expect(m.f1).toBeCloseTo(0.9194, 4);
    expect(m.floorF1).toBeCloseTo(0.7155, 4);
    // Hand: specificity 117/132, accuracy 271/298, p = 166/298, q = 169/298.
    expect(m.specificity).toBeCloseTo(117 / 132, 14);
    expect(m.accuracy).toBeCloseTo(271 / 298, 14);
    expect(m.balancedAccuracy).toBeCloseTo((154 / 166 + 117 / 132) / 2, 14);
    const p = 166 / 298;
    const q = 169 / 298;
    expect(m.randomF1).toBeCloseTo((2 * p * q) / (p + q), 14);
    expect(m.mcc).toBeCloseTo((154 * 117 - 15 * 12) / Math.sqrt(169 * 166 * 132 * 129), 14);
  });

  it('frontier vs GT_RS_200, 62/15/6/117', () => {
    const m = detectorMetrics({ tp: 62, fp: 15, fn: 6, tn: 117 });
    expect(m.f1).toBeCloseTo(0.8552, 4);
    expect(m.mcc).toBeCloseTo(0.777, 3);
    expect(m.floorF1).toBeCloseTo(0.5075, 4);
    expect(m.prevalence).toBe(0.34);
    expect(m.flagRate).toBe(0.385);
    expect(m.randomF1).toBeCloseTo((2 * 0.34 * 0.385) / (0.34 + 0.385), 14);
    expect(m.method).toMatch(/2p\/\(1\+p\)/);
  });

  it('kappa and MCC against hand computation', () => {
    // po = 179/200 = 0.895; pe = 0.34·0.385 + 0.66·0.615 = 0.5368 → kappa = 0.3582/0.4632.
    expect(cohenKappa({ tp: 62, fp: 15, fn: 6, tn: 117 })).toBeCloseTo(0.3582 / 0.4632, 12);
    // Symmetric table 20/5/5/20: po 0.8, pe 0.5 → kappa 0.6; MCC (400 − 25)/625 = 0.6.
    expect(cohenKappa({ tp: 20, fp: 5, fn: 5, tn: 20 })).toBeCloseTo(0.6, 14);
    expect(mcc({ tp: 20, fp: 5, fn: 5, tn: 20 })).toBeCloseTo(0.6, 14);
    // Perfect disagreement.
    expect(cohenKappa({ tp: 0, fp: 5, fn: 5, tn: 0 })).toBe(-1);
    expect(mcc({ tp: 0, fp: 5, fn: 5, tn: 0 })).toBe(-1);
  });

  it('zero denominators give NaN, never Infinity or a throw', () => {
    const empty = detectorMetrics({ tp: 0, fp: 0, fn: 0, tn: 0 });
    expect(empty.n).toBe(0);
    for (const k of ['precision', 'recall', 'f1', 'specificity', 'balancedAccuracy', 'accuracy', 'mcc', 'prevalence', 'floorF1', 'randomF1'] as const) {
      expect(empty[k]).toBeNaN();
    }
    // p = 0: no errors in the sample, detector flags some.
    const p0 = detectorMetrics({ tp: 0, fp: 3, fn: 0, tn: 7 });
    expect(p0.prevalence).toBe(0);
    expect(p0.recall).toBeNaN();
    expect(p0.precision).toBe(0);
    expect(p0.f1).toBe(0);
    expect(p0.floorF1).toBe(0);
    expect(p0.randomF1).toBe(0);
    expect(p0.mcc).toBeNaN();
    // p = 1: every item is an error; flagging all is perfect.
    const p1 = detectorMetrics({ tp: 10, fp: 0, fn: 0, tn: 0 });
    expect(p1.floorF1).toBe(1);
    expect(p1.f1).toBe(1);
    expect(p1.specificity).toBeNaN();
    expect(p1.balancedAccuracy).toBeNaN();
    // No flags and no errors: F1 undefined, specificity 1.
    const none = detectorMetrics({ tp: 0, fp: 0, fn: 0, tn: 9 });
    expect(none.f1).toBeNaN();
    expect(none.randomF1).toBeNaN();
    expect(none.specificity).toBe(1);
    expect(cohenKappa({ tp: 0, fp: 0, fn: 0, tn: 0 })).toBeNaN();
    expect(cohenKappa({ tp: 0, fp: 0, fn: 0, tn: 9 })).toBeNaN(); // pe = 1
    expect(mcc({ tp: 3, fp: 2, fn: 0, tn: 0 })).toBeNaN();
    expect(() => detectorMetrics({ tp: -1, fp: 0, fn: 0, tn: 0 })).toThrow(RangeError);
  });
});

describe('agreementWithCI', () => {
  it('reproduces the SALUS frontier/GT_RS_200 table with CIs around it', () => {
    // 62 both-error, 15 flagged-only, 6 missed, 117 both-correct (true = error here).
    const a: boolean[] = [];
    const b: boolean[] = [];
    const push = (x: boolean, y: boolean, k: number): void => {
      for (let i = 0; i < k; i++) {
        a.push(x);
        b.push(y);
      }
    };
    push(true, true, 62);
    push(false, true, 15);
    push(true, false, 6);
    push(false, false, 117);
    const r = agreementWithCI(a, b, { seed: 1 });
    expect(r.n).toBe(200);
    expect(r.confusion).toEqual({ tp: 62, fp: 15, fn: 6, tn: 117 });
    expect(r.accuracy.estimate).toBeCloseTo(0.895, 14);
    expect(r.kappa.estimate).toBeCloseTo(0.3582 / 0.4632, 12);
    expect(r.mcc.estimate).toBeCloseTo(0.777, 3);
    for (const iv of [r.accuracy, r.kappa, r.mcc]) {
      expect(iv.low).toBeLessThan(iv.estimate);
      expect(iv.high).toBeGreaterThan(iv.estimate);
      expect(iv.high - iv.low).toBeLessThan(0.25);
      expect(iv.method).toMatch(/bootstrap.*seed 1/);
    }
    // Accuracy CI near the Wilson width for 179/200 (≈ ±0.043).
    expect(r.accuracy.high - r.accuracy.low).toBeGreaterThan(0.06);
    expect(r.accuracy.high - r.accuracy.low).toBeLessThan(0.11);
    // Same seed, same result; symmetric in a and b.
    expect(agreementWithCI(a, b, { seed: 1 })).toEqual(r);
    expect(agreementWithCI(b, a, { seed: 1 }).kappa.estimate).toBeCloseTo(r.kappa.estimate, 14);
  });

  it('degenerate inputs: n = 0 and one-label raters', () => {
    const e = agreementWithCI([], []);
    expect(e.n).toBe(0);
    expect(e.kappa.estimate).toBeNaN();
    expect(e.accuracy.low).toBeNaN();
    const one = agreementWithCI([true, true, true], [true, true, true]);
    expect(one.accuracy.estimate).toBe(1);
    expect(one.kappa.estimate).toBeNaN();
    expect(one.mcc.low).toBeNaN();
  });
});

describe('gap threshold (SALUS)', () => {
  it('BIRD dev: N = 1534, e = 564 → σ_gap 3.10%, g* 5.09%', () => {
    const g = gapThreshold({ n: 1534, flawed: 564 });
    expect(g.sigmaGap).toBeCloseTo(0.031, 4);
    expect(g.threshold).toBeCloseTo(0.0509, 4);
    expect(g.sigmaGap).toBeCloseTo((2 * Math.sqrt(564)) / 1534, 15);
    expect(g.z).toBeCloseTo(1.6449, 4);
    expect(g.errorRate).toBeCloseTo(564 / 1534, 15);
    expect(g.method).toMatch(/2\*sqrt\(e\)\/N/);
  });

  it('accepts an error rate instead of a count', () => {
    const g = gapThreshold({ n: 1534, errorRate: 564 / 1534 });
    expect(g.flawed).toBeCloseTo(564, 10);
    expect(g.threshold).toBeCloseTo(0.0509, 4);
    const g99 = gapThreshold({ n: 1534, flawed: 564, confidence: 0.99 });
    expect(g99.z).toBeCloseTo(2.3263, 4);
    expect(g99.threshold).toBeCloseTo(2.3263478740408408 * g99.sigmaGap, 12);
  });

  it('edge cases and bad input', () => {
    expect(gapThreshold({ n: 100, flawed: 0 }).threshold).toBe(0);
    expect(gapThreshold({ n: 0, flawed: 0 }).sigmaGap).toBeNaN();
    expect(() => gapThreshold({ n: 100 })).toThrow(/exactly one/);
    expect(() => gapThreshold({ n: 100, flawed: 3, errorRate: 0.03 })).toThrow(/exactly one/);
    expect(() => gapThreshold({ n: 100, flawed: 101 })).toThrow(RangeError);
    expect(() => gapThreshold({ n: 100, errorRate: 37 })).toThrow(/fraction/);
  });

  it('outperformance probability Φ(g/σ)', () => {
    expect(outperformanceProbability(0, 0.031)).toBe(0.5);
    expect(outperformanceProbability(0.031, 0.031)).toBeCloseTo(0.8413447460685429, 12);
    expect(outperformanceProbability(-0.031, 0.031)).toBeCloseTo(0.15865525393145705, 12);
    expect(outperformanceProbability(0.01, 0)).toBe(1);
    expect(outperformanceProbability(-0.01, 0)).toBe(0);
    expect(outperformanceProbability(0.01, NaN)).toBeNaN();
  });

  it('expected Kendall tau under noise', () => {
    // Pairs (g = σ, 2σ, σ): mean of 2Φ(1)−1, 2Φ(2)−1, 2Φ(1)−1.
    const s = 0.03;
    const t1 = 2 * 0.8413447460685429 - 1;
    const t2 = 2 * 0.9772498680518208 - 1;
    expect(expectedKendallTau([0.6, 0.63, 0.66], s)).toBeCloseTo((2 * t1 + t2) / 3, 10);
    // Far-apart systems → 1; tied systems → 0; one system → NaN (no pair to order).
    expect(expectedKendallTau([0.1, 0.9], 0.001)).toBe(1);
    expect(expectedKendallTau([0.5, 0.5], 0.03)).toBe(0);
    expect(expectedKendallTau([0.5, 0.5, 0.9], 0)).toBeCloseTo(2 / 3, 14);
    expect(expectedKendallTau([0.7], 0.03)).toBeNaN();
    expect(expectedKendallTau([], 0.03)).toBeNaN();
  });
});

describe('Rogan–Gladen prevalence', () => {
  it('BIRD dev frontier: 39.3% [33.2%, 45.5%] (published figure)', () => {
    const r = roganGladen({ n: 1534, flagged: 656, tp: 62, fp: 15, fn: 6, tn: 117 });
    expect(r.estimate).toBeCloseTo(0.393, 3);
    expect(r.ciLow).toBeCloseTo(0.332, 3);
    expect(r.ciHigh).toBeCloseTo(0.455, 3);
    expect(r.flagRate).toBeCloseTo(656 / 1534, 15);
    expect(r.tpr).toBeCloseTo(62 / 68, 15);
    expect(r.fpr).toBeCloseTo(15 / 132, 15);
    expect(r.estimate).toBeCloseTo((656 / 1534 - 15 / 132) / (62 / 68 - 15 / 132), 14);
    expect(r.clipped).toBe(false);
    expect(r.reason).toBeUndefined();
    expect(r.method).toMatch(/delta-method/);
  });

  it('clips to [0, 1] and says so', () => {
    // Flag rate below FPR → negative raw estimate.
    const lo = roganGladen({ n: 100, flagged: 5, tp: 9, fp: 2, fn: 1, tn: 8 });
    expect(lo.rawEstimate).toBeLessThan(0);
    expect(lo.estimate).toBe(0);
    expect(lo.ciLow).toBe(0);
    expect(lo.clipped).toBe(true);
    // Flag rate above TPR → above 1.
    const hi = roganGladen({ n: 100, flagged: 95, tp: 8, fp: 1, fn: 2, tn: 9 });
    expect(hi.rawEstimate).toBeGreaterThan(1);
    expect(hi.estimate).toBe(1);
    expect(hi.clipped).toBe(true);
  });

  it('undefined cases return NaN with a reason', () => {
    const same = roganGladen({ n: 100, flagged: 50, tp: 5, fp: 5, fn: 5, tn: 5 });
    expect(same.estimate).toBeNaN();
    expect(same.ciLow).toBeNaN();
    expect(same.reason).toMatch(/TPR = FPR/);
    expect(roganGladen({ n: 0, flagged: 0, tp: 5, fp: 1, fn: 1, tn: 5 }).reason).toMatch(/n = 0/);
    expect(roganGladen({ n: 10, flagged: 2, tp: 0, fp: 1, fn: 0, tn: 5 }).reason).toMatch(/TPR undefined/);
    expect(roganGladen({ n: 10, flagged: 2, tp: 3, fp: 0, fn: 1, tn: 0 }).reason).toMatch(/FPR undefined/);
    expect(() => roganGladen({ n: 10, flagged: 11, tp: 1, fp: 1, fn: 1, tn: 1 })).toThrow(RangeError);
    expect(() => roganGladen({ n: 10, flagged: 1, tp: -1, fp: 1, fn: 1, tn: 1 })).toThrow(RangeError);
  });

  it('a perfect detector with no sampling error reproduces the flag rate', () => {
    const r = roganGladen({ n: 1000, flagged: 300, tp: 50, fp: 0, fn: 0, tn: 50 });
    expect(r.estimate).toBe(0.3);
    // Only the flag-rate variance remains: se = √(0.3·0.7/1000).
    expect(r.se).toBeCloseTo(Math.sqrt(0.21 / 1000), 15);
  });
});
