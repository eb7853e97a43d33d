import { describe, expect, it } from 'vitest';
import { fitLabelModel } from '../../src/audit/label-model.js';
import { createRng } from '../../src/stats/rng.js';

/** Synthetic LFs with known accuracies and coverages, conditionally independent given the class. */
function synthetic(n: number, prior: number, lfs: { acc: number; cov: number; unipolar?: boolean }[], seed: number) {
  const rng = createRng(seed);
  const m = lfs.length;
  const votes = new Int8Array(n * m);
  const truth: number[] = [];
  for (let i = 0; i < n; i++) {
    const err = rng() < prior;
    truth.push(+err);
    lfs.forEach((lf, j) => {
      if (rng() >= lf.cov) return;
      const right = rng() < lf.acc;
      votes[i * m + j] = (err ? -1 : 1) * (right ? 1 : -1);
    });
  }
  return { n, m, votes, truth };
}

describe('Dawid–Skene label model', () => {
  const lfs = [
    { acc: 0.95, cov: 0.5 },
    { acc: 0.9, cov: 0.7 },
    { acc: 0.85, cov: 0.9 },
    { acc: 0.8, cov: 0.6 },
    { acc: 0.75, cov: 0.8 },
    { acc: 0.7, cov: 0.95 },
    { acc: 0.65, cov: 0.4 },
    { acc: 0.6, cov: 0.9 },
  ];

  it('recovers known LF accuracies within ±0.05 from the votes alone', () => {
    const data = synthetic(4000, 0.3, lfs, 7);
    const fit = fitLabelModel(data);
    lfs.forEach((lf, j) => expect(Math.abs(fit.accuracy[j]! - lf.acc)).toBeLessThan(0.05));
    expect(Math.abs(fit.errorPrior - 0.3)).toBeLessThan(0.05);
    // And the posterior beats the best single LF at telling errors apart.
    let right = 0;
    data.truth.forEach((t, i) => (right += +((fit.posterior[i]! > 0.5) === (t === 1))));
    expect(right / data.n).toBeGreaterThan(0.9);
  });

  it('is deterministic and leaves unfitted columns out', () => {
    const data = synthetic(500, 0.4, lfs, 3);
    const a = fitLabelModel({ ...data, columns: [0, 1, 2, 3] });
    const b = fitLabelModel({ ...data, columns: [0, 1, 2, 3] });
    expect(Array.from(a.posterior)).toEqual(Array.from(b.posterior));
    expect(Number.isNaN(a.accuracy[5]!)).toBe(true);
  });

  it('learns what a unipolar LF means from when it fires', () => {
    // LF 0 only ever votes "error", on 60% of errors and 2% of correct items.
    const rng = createRng(11);
    const n = 3000;
    const m = 4;
    const votes = new Int8Array(n * m);
    const truth: number[] = [];
    for (let i = 0; i < n; i++) {
      const err = rng() < 0.25;
      truth.push(+err);
      if (rng() < (err ? 0.6 : 0.02)) votes[i * m] = -1;
      for (let j = 1; j < m; j++) votes[i * m + j] = (err ? -1 : 1) * (rng() < 0.8 ? 1 : -1);
    }
    const fit = fitLabelModel({ n, m, votes });
    expect(fit.theta[0]![1]![1]!).toBeGreaterThan(0.5);
    expect(fit.theta[0]![0]![1]!).toBeLessThan(0.06);
  });
});

describe('anchored EM', () => {
  it('holds proven errors at posterior 1 and learns from them', () => {
    // LF 0 fires on 70% of errors and 5% of correct items; a few errors are known facts.
    const rng = createRng(21);
    const n = 2000;
    const m = 3;
    const votes = new Int8Array(n * m);
    const clampError: boolean[] = [];
    for (let i = 0; i < n; i++) {
      const err = rng() < 0.3;
      clampError.push(err && rng() < 0.1);
      if (rng() < (err ? 0.7 : 0.05)) votes[i * m] = -1;
      for (let j = 1; j < m; j++) votes[i * m + j] = (err ? -1 : 1) * (rng() < 0.75 ? 1 : -1);
    }
    const fit = fitLabelModel({ n, m, votes, clampError });
    clampError.forEach((c, i) => c && expect(fit.posterior[i]).toBe(1));
    expect(fit.theta[0]![1]![1]!).toBeGreaterThan(0.55);
  });
});
