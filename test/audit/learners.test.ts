import { describe, expect, it } from 'vitest';
import { fitCart, predictCart } from '../../src/audit/cart.js';
import { stratifiedFolds } from '../../src/audit/folds.js';
import { fitLogistic, predictLogistic } from '../../src/stats/logistic.js';
import { createRng } from '../../src/stats/rng.js';

describe('CART', () => {
  // y = x0 AND x1: an interaction that one split cannot express and depth 2 can.
  const X: number[][] = [];
  const y: number[] = [];
  for (let i = 0; i < 200; i++) {
    const a = i % 2;
    const b = Math.floor(i / 2) % 2;
    X.push([a, b, i % 7]);
    y.push(a & b);
  }

  it('learns an interaction at depth 2 and stays a leaf at depth 0', () => {
    const tree = fitCart(X, y, { maxDepth: 2 });
    expect(predictCart(tree, [1, 1, 0])).toBeGreaterThan(0.9);
    expect(predictCart(tree, [0, 1, 0])).toBeLessThan(0.1);
    expect(predictCart(tree, [1, 0, 0])).toBeLessThan(0.1);
    const stump = fitCart(X, y, { maxDepth: 0 });
    expect(stump.leaf).toBe(true);
  });

  it('respects the minimum leaf size and is deterministic', () => {
    const a = fitCart(X, y, { maxDepth: 4, minLeaf: 30 });
    const b = fitCart(X, y, { maxDepth: 4, minLeaf: 30 });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    const leaves: number[] = [];
    const walk = (n: typeof a): void => (n.leaf ? void leaves.push(n.n) : (walk(n.left), walk(n.right)));
    walk(a);
    expect(Math.min(...leaves)).toBeGreaterThanOrEqual(30);
  });
});

describe('logistic regression', () => {
  it('recovers the sign and rough size of a known effect', () => {
    const rng = createRng(5);
    const X: number[][] = [];
    const y: number[] = [];
    for (let i = 0; i < 2000; i++) {
      const a = rng() * 4 - 2;
      const b = rng() * 4 - 2;
      X.push([a, b]);
      y.push(+(rng() < 1 / (1 + Math.exp(-(1.5 * a - 0.5)))));
    }
    const m = fitLogistic(X, y, { l2: 1e-6 });
    expect(m.weights[0]! / m.scale[0]!).toBeGreaterThan(1.2);
    expect(m.weights[0]! / m.scale[0]!).toBeLessThan(1.8);
    expect(Math.abs(m.weights[1]!)).toBeLessThan(0.15);
    expect(predictLogistic(m, [2, 0])).toBeGreaterThan(0.9);
  });
});

describe('stratified folds', () => {
  it('keeps the class balance in every fold and depends only on the seed', () => {
    const y = Array.from({ length: 103 }, (_, i) => +(i % 4 === 0));
    const f = stratifiedFolds(y, 5, 9);
    expect(stratifiedFolds(y, 5, 9)).toEqual(f);
    for (let k = 0; k < 5; k++) {
      const pos = y.filter((v, i) => v === 1 && f[i] === k).length;
      expect(pos).toBeGreaterThanOrEqual(5);
      expect(pos).toBeLessThanOrEqual(6);
    }
  });
});
