import { describe, expect, it } from 'vitest';
import { dependentGroups, residualCorrelation } from '../../src/audit/dependency.js';
import { createRng } from '../../src/stats/rng.js';

/**
 * Agents voting on tasks with a known class: independent agents err on their own; a family
 * shares one latent "method" whose mistakes all its members repeat. The residual correlation
 * within the gold-right class must find the families and nothing else, from the votes and a
 * posterior alone (here the true class, as a perfect label model would give).
 */
function simulate(n: number, seed: number) {
  const rng = createRng(seed);
  // Agents 0-2: one family; 3-4: another; 5-9: independent.
  const family = [0, 0, 0, 1, 1, -1, -1, -1, -1, -1];
  const k = family.length;
  const votes = new Int8Array(n * k);
  const posterior = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const err = rng() < 0.25;
    posterior[i] = err ? 1 : 0;
    const familySlip = [rng() < 0.15, rng() < 0.15];
    for (let a = 0; a < k; a++) {
      const f = family[a]!;
      const slip = f >= 0 ? familySlip[f]! || rng() < 0.03 : rng() < 0.15;
      votes[i * k + a] = (err ? -1 : 1) * (slip ? -1 : 1);
    }
  }
  return { votes, k, posterior };
}

describe('label-free dependency structure among agents', () => {
  it('groups the agents that repeat each other\'s mistakes and leaves independent ones alone', () => {
    const { votes, k, posterior } = simulate(2000, 11);
    const R = residualCorrelation(votes, k, Array.from({ length: k }, (_, a) => a), posterior);
    expect(R[0]![1]!).toBeGreaterThan(0.5);
    expect(Math.abs(R[5]![6]!)).toBeLessThan(0.1);
    expect(dependentGroups(R)).toEqual([[0, 1, 2], [3, 4], [5], [6], [7], [8], [9]]);
  });

  it('finds no family among independent agents', () => {
    const rng = createRng(3);
    const n = 1500;
    const k = 8;
    const votes = new Int8Array(n * k);
    const posterior = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const err = rng() < 0.3;
      posterior[i] = err ? 1 : 0;
      for (let a = 0; a < k; a++) votes[i * k + a] = (err ? -1 : 1) * (rng() < 0.2 ? -1 : 1);
    }
    const R = residualCorrelation(votes, k, Array.from({ length: k }, (_, a) => a), posterior);
    expect(dependentGroups(R).every((g) => g.length === 1)).toBe(true);
  });
});
