import { describe, expect, it } from 'vitest';
import { normalCdf, normalQuantile } from '../src/stats/normal.js';
import { wilson, clopperPearson } from '../src/stats/intervals.js';
import { betaInc, binomialCdf, logGamma } from '../src/stats/beta.js';
import { createRng } from '../src/stats/rng.js';
import { bootstrapInterval, bootstrapIntervals, pairedBootstrapDiff, pairedDiffFromCounts, resampleCounts } from '../src/stats/bootstrap.js';
import { mcnemarExact } from '../src/stats/mcnemar.js';
import { kendallTauB } from '../src/stats/kendall.js';
import { alignVerdicts, compareTaskIds } from '../src/stats/verdict-matrix.js';

describe('normal distribution', () => {
  it('matches tabulated Φ to 1e-12', () => {
    // Reference values: R pnorm / Abramowitz & Stegun.
    expect(normalCdf(0)).toBe(0.5);
    expect(normalCdf(-1)).toBeCloseTo(0.15865525393145705, 12);
    expect(normalCdf(1.959963984540054)).toBeCloseTo(0.975, 12);
    expect(normalCdf(-3)).toBeCloseTo(0.0013498980316301, 14);
    expect(normalCdf(3)).toBeCloseTo(0.9986501019683699, 12);
    // Tail keeps relative accuracy.
    expect(normalCdf(-5) / 2.866515718791939e-7).toBeCloseTo(1, 10);
    expect(normalCdf(-10) / 7.619853024160527e-24).toBeCloseTo(1, 10);
    expect(normalCdf(Infinity)).toBe(1);
    expect(normalCdf(-Infinity)).toBe(0);
    expect(normalCdf(NaN)).toBeNaN();
  });

  it('inverts Φ to double precision', () => {
    expect(normalQuantile(0.95)).toBeCloseTo(1.6448536269514722, 12);
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963984540054, 12);
    expect(normalQuantile(0.025)).toBeCloseTo(-1.959963984540054, 12);
    expect(normalQuantile(0.001)).toBeCloseTo(-3.090232306167813, 11);
    expect(normalQuantile(0.5)).toBe(0);
    expect(normalQuantile(0)).toBe(-Infinity);
    expect(normalQuantile(1)).toBe(Infinity);
    expect(normalQuantile(1.5)).toBeNaN();
    for (const p of [1e-8, 0.01, 0.2, 0.7, 0.99]) expect(normalCdf(normalQuantile(p))).toBeCloseTo(p, 13);
  });
});

describe('beta and binomial', () => {
  it('computes log-gamma and the incomplete beta', () => {
    expect(logGamma(5)).toBeCloseTo(Math.log(24), 12);
    expect(logGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 12);
    // I_x(1, b) = 1 − (1 − x)^b and I_x(a, 1) = x^a.
    expect(betaInc(0.3, 1, 4)).toBeCloseTo(1 - 0.7 ** 4, 13);
    expect(betaInc(0.3, 3, 1)).toBeCloseTo(0.3 ** 3, 13);
    expect(binomialCdf(500, 1000, 0.5)).toBeCloseTo(0.5126125090891, 11);
    expect(binomialCdf(1, 6, 0.5)).toBeCloseTo(7 / 64, 14);
  });
});

describe('Wilson and Clopper–Pearson intervals', () => {
  it('Wilson for 68/200 is [27.8%, 40.8%] (published figure)', () => {
    const w = wilson(68, 200);
    expect(w.estimate).toBe(0.34);
    expect(w.low).toBeCloseTo(0.2779, 4);
    expect(w.high).toBeCloseTo(0.4081, 4);
    expect(w.method).toMatch(/Wilson/);
  });

  it('Clopper–Pearson matches R binom.test', () => {
    const a = clopperPearson(5, 10);
    expect(a.low).toBeCloseTo(0.187086, 6);
    expect(a.high).toBeCloseTo(0.812914, 6);
    const b = clopperPearson(1, 10);
    expect(b.low).toBeCloseTo(0.002528579, 9);
    expect(b.high).toBeCloseTo(0.445016117, 9);
    const c = clopperPearson(68, 200);
    expect(c.low).toBeCloseTo(0.2746683, 6);
    expect(c.high).toBeCloseTo(0.4101559, 6);
    expect(c.method).toMatch(/Clopper/);
  });

  it('p = 0 and p = 1 give closed-form one-sided bounds', () => {
    // k = 0: upper bound 1 − (α/2)^(1/n); k = n: lower bound (α/2)^(1/n).
    const z = clopperPearson(0, 10);
    expect([z.estimate, z.low]).toEqual([0, 0]);
    expect(z.high).toBeCloseTo(1 - 0.025 ** 0.1, 12);
    const o = clopperPearson(10, 10);
    expect([o.estimate, o.high]).toEqual([1, 1]);
    expect(o.low).toBeCloseTo(0.025 ** 0.1, 12);
    const w0 = wilson(0, 10);
    expect(w0.low).toBe(0);
    expect(w0.high).toBeCloseTo(1.959963984540054 ** 2 / (10 + 1.959963984540054 ** 2), 12);
    const w1 = wilson(10, 10);
    expect(w1.high).toBe(1);
    expect(w1.low).toBeCloseTo(10 / (10 + 1.959963984540054 ** 2), 12);
  });

  it('n = 0 gives NaN estimate and [0, 1]; bad counts throw', () => {
    for (const f of [wilson, clopperPearson]) {
      const r = f(0, 0);
      expect(r.estimate).toBeNaN();
      expect([r.low, r.high]).toEqual([0, 1]);
      expect(() => f(3, 2)).toThrow(RangeError);
      expect(() => f(-1, 2)).toThrow(RangeError);
    }
  });

  it('respects the confidence level', () => {
    const w90 = wilson(68, 200, 0.9);
    const w99 = wilson(68, 200, 0.99);
    expect(w90.high - w90.low).toBeLessThan(w99.high - w99.low);
    expect(w90.method).toMatch(/90%/);
  });
});

describe('seeded resampling', () => {
  it('createRng is deterministic, seed-dependent and uniform', () => {
    const a = createRng(7);
    const b = createRng(7);
    const xs = Array.from({ length: 5 }, a);
    expect(Array.from({ length: 5 }, b)).toEqual(xs);
    expect(Array.from({ length: 5 }, createRng(8))).not.toEqual(xs);
    const r = createRng(1);
    let sum = 0;
    for (let i = 0; i < 100_000; i++) {
      const v = r();
      expect(v >= 0 && v < 1).toBe(true);
      sum += v;
    }
    expect(sum / 100_000).toBeCloseTo(0.5, 2);
  });

  it('bootstrapInterval: estimate on identity, reproducible, covers the truth', () => {
    const values = Array.from({ length: 400 }, (_, i) => (i % 5 === 0 ? 1 : 0)); // mean 0.2
    const mean = (idx: Uint32Array): number => {
      let s = 0;
      for (const i of idx) s += values[i]!;
      return s / idx.length;
    };
    const r1 = bootstrapInterval(values.length, mean, { seed: 3 });
    const r2 = bootstrapInterval(values.length, mean, { seed: 3 });
    expect(r1.estimate).toBe(0.2);
    expect(r1.samples.length).toBe(2000);
    expect([r1.low, r1.high]).toEqual([r2.low, r2.high]);
    // Close to the Wald half-width 1.96·√(0.2·0.8/400) = 0.0392.
    expect(r1.low).toBeGreaterThan(0.2 - 0.05);
    expect(r1.low).toBeLessThan(0.2 - 0.03);
    expect(r1.high).toBeGreaterThan(0.2 + 0.03);
    expect(r1.high).toBeLessThan(0.2 + 0.05);
    expect(r1.method).toMatch(/2000 resamples, seed 3/);
    const r3 = bootstrapInterval(values.length, mean, { seed: 4, iterations: 500 });
    expect(r3.samples.length).toBe(500);
    expect(Array.from(r3.samples)).not.toEqual(Array.from(r1.samples.subarray(0, 500)));
  });

  it('bootstrapInterval: n = 0 and all-undefined statistics give NaN', () => {
    const empty = bootstrapInterval(0, () => 1);
    expect(empty.estimate).toBeNaN();
    expect(empty.low).toBeNaN();
    const undef = bootstrapInterval(10, () => NaN);
    expect(undef.low).toBeNaN();
    expect(undef.high).toBeNaN();
  });

  it('pairedBootstrapDiff: paired items, pGreater', () => {
    const a = [1, 1, 1, 0, 1, 0, 1, 1];
    const b = [0, 1, 0, 0, 1, 0, 1, 0];
    const d = pairedBootstrapDiff(a, b);
    expect(d.estimate).toBe(0.375);
    expect(d.low).toBeGreaterThanOrEqual(0); // a is never worse than b on any item
    expect(d.high).toBeLessThanOrEqual(1);
    expect(d.pGreater).toBeGreaterThan(0.9);
    expect(d.method).toMatch(/paired/);
    // Identical systems: the difference is 0 in every resample.
    const same = pairedBootstrapDiff(a, a);
    expect([same.estimate, same.low, same.high, same.pGreater]).toEqual([0, 0, 0, 0]);
    const e = pairedBootstrapDiff([], []);
    expect(e.estimate).toBeNaN();
    expect(e.pGreater).toBeNaN();
    expect(() => pairedBootstrapDiff([1], [1, 0])).toThrow(RangeError);
  });

  it('shared resamples give exactly what one bootstrap per statistic or pair gives', () => {
    const rng = createRng(5);
    const rows = [0.8, 0.6, 0.5].map((p) => Uint8Array.from({ length: 150 }, () => (rng() < p ? 1 : 0)));
    const opts = { seed: 9, iterations: 400, confidence: 0.9 };
    const counts = resampleCounts(rows, opts);
    const total = (row: Uint8Array): number => row.reduce((s, v) => s + v, 0);
    for (const [i, j] of [[0, 1], [0, 2], [1, 2]] as const) {
      const shared = pairedDiffFromCounts({ k: total(rows[i]!), resampled: counts[i]! }, { k: total(rows[j]!), resampled: counts[j]! }, 150, opts);
      expect(shared).toEqual(pairedBootstrapDiff(rows[i]!, rows[j]!, opts));
    }
    const mean = (row: Uint8Array) => (idx: Uint32Array): number => idx.reduce((s, t) => s + row[t]!, 0) / idx.length;
    const both = bootstrapIntervals(150, 2, (idx) => [mean(rows[0]!)(idx), mean(rows[1]!)(idx)], opts);
    expect(both).toEqual([bootstrapInterval(150, mean(rows[0]!), opts), bootstrapInterval(150, mean(rows[1]!), opts)]);
    const none = pairedDiffFromCounts({ k: 0, resampled: new Uint32Array(0) }, { k: 0, resampled: new Uint32Array(0) }, 0, opts);
    expect(none).toEqual(pairedBootstrapDiff([], [], opts));
  });
});

describe('exact McNemar', () => {
  it('matches hand-computed binomial tails', () => {
    expect(mcnemarExact(1, 5).pValue).toBeCloseTo(14 / 64, 14);
    expect(mcnemarExact(5, 1).pValue).toBeCloseTo(14 / 64, 14);
    expect(mcnemarExact(0, 10).pValue).toBeCloseTo(2 / 1024, 14);
    expect(mcnemarExact(3, 3).pValue).toBe(1);
    expect(mcnemarExact(0, 0).pValue).toBe(1);
    expect(mcnemarExact(0, 0).method).toMatch(/exact McNemar/);
    expect(() => mcnemarExact(-1, 2)).toThrow(RangeError);
  });
});

describe('Kendall tau-b', () => {
  it('agrees with scipy.stats.kendalltau on tied data', () => {
    expect(kendallTauB([12, 2, 1, 12, 2], [1, 4, 7, 1, 0])).toBeCloseTo(-0.47140452079103173, 14);
  });

  it('handles ties by hand: x = [1,2,2,3], y = [1,3,2,2]', () => {
    // Pairs: (1,2) C, (1,3) C, (1,4) C, (2,3) tie x, (2,4) D, (3,4) tie y → C=3, D=1, n0=6, n1=1, n2=1.
    expect(kendallTauB([1, 2, 2, 3], [1, 3, 2, 2])).toBeCloseTo(2 / 5, 14);
  });

  it('is ±1 for monotone data and NaN when undefined', () => {
    expect(kendallTauB([1, 2, 3, 4], [10, 20, 30, 40])).toBe(1);
    expect(kendallTauB([1, 2, 3, 4], [4, 3, 2, 1])).toBe(-1);
    expect(kendallTauB([1], [1])).toBeNaN();
    expect(kendallTauB([], [])).toBeNaN();
    expect(kendallTauB([1, 1, 1], [1, 2, 3])).toBeNaN();
    expect(() => kendallTauB([1, 2], [1])).toThrow(RangeError);
  });
});

describe('verdict matrix task order', () => {
  const ids = ['q2', '007', '100', '10', '9', '1a', '0', '99', '7', '12345678901234567890', '12345678901234567889', 'Q1', '0010'];
  const expected = ['0', '7', '9', '10', '99', '100', '12345678901234567889', '12345678901234567890', '0010', '007', '1a', 'Q1', 'q2'];

  it('canonical integers in numeric order, then everything else (leading zeros included) in code-point order', () => {
    // "007" used to count as a 3-digit number and land between 99 and 100.
    expect([...ids].sort(compareTaskIds)).toEqual(expected);
    expect([...ids].reverse().sort(compareTaskIds)).toEqual(expected);
  });

  it('is a total order: antisymmetric, transitive, 0 only for equal ids', () => {
    const sign = (a: string, b: string) => Math.sign(compareTaskIds(a, b));
    for (const a of ids) {
      for (const b of ids) {
        expect(sign(a, b) + sign(b, a)).toBe(0);
        expect(sign(a, b) === 0).toBe(a === b);
        for (const c of ids) if (sign(a, b) < 0 && sign(b, c) < 0) expect(sign(a, c)).toBe(-1);
      }
    }
  });

  it('alignVerdicts lists the same tasks in the same order whichever file comes first', () => {
    const rec = (system: string, taskId: string, correct: boolean) => ({ system, taskId, correct });
    const a = { file: 'a.jsonl', records: [rec('A', '10', true), rec('A', '007', true), rec('A', '7', false)] };
    const b = { file: 'b.jsonl', records: [rec('B', '007', false), rec('B', '9', true)] };
    const ab = alignVerdicts([a, b]);
    const ba = alignVerdicts([b, a]);
    expect(ab.tasks).toEqual(['7', '9', '10', '007']);
    expect(ba.tasks).toEqual(ab.tasks);
    expect([...ab.correct[0]!]).toEqual([0, 0, 1, 1]);
    expect([...ab.correct[1]!]).toEqual([0, 1, 0, 0]);
    expect(ab.absent).toEqual([1, 2]);
  });
});
