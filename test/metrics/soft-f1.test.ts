import { describe, expect, it } from 'vitest';
import { softF1, softF1Rows } from '../../src/execution/soft-f1.js';

describe('Soft-F1 (BIRD mini-dev evaluation_f1) on hand-made rows', () => {
  it('pairs de-duplicated rows by position: the same rows in another order score below 1', () => {
    expect(softF1Rows([[1], [2]], [[1], [2]])).toBe(1);
    expect(softF1Rows([[1], [2]], [[2], [1]])).toBe(0);
    // Duplicates dropped first (keeping the first), so [1],[1],[2] pairs like [1],[2].
    expect(softF1Rows([[1], [2]], [[1], [1], [2]])).toBe(1);
  });
  it('matches values within a row by membership, every share over the gold row width', () => {
    expect(softF1Rows([[1, 'a']], [['a', 1]])).toBe(1);
    // pred (1, 1, 'a') against gold (1, 'a'): 3 matches / 2 → tp 1.5, nothing else: F1 1.
    expect(softF1Rows([[1, 'a']], [[1, 1, 'a']])).toBe(1);
    // gold (1, 2), pred (1, 3): tp 0.5, fp 0.5, fn 0.5 → P = R = 0.5.
    expect(softF1Rows([[1, 2]], [[1, 3]])).toBe(0.5);
    // unpaired gold row: fn 1; unpaired predicted row: fp 1.
    expect(softF1Rows([[1], [2]], [[1]])).toBeCloseTo(2 / 3, 15);
    expect(softF1Rows([[1]], [[1], [2]])).toBeCloseTo(2 / 3, 15);
  });
  it('compares values as Python does, scores two empties 1, an empty side against rows 0, an error 0', () => {
    expect(softF1Rows([[1]], [[1.0]])).toBe(1);
    expect(softF1Rows([['1']], [[1]])).toBe(0);
    expect(softF1Rows([], [])).toBe(1);
    expect(softF1Rows([[1]], [])).toBe(0);
    expect(softF1Rows([], [[1]])).toBe(0);
    const ok = { status: 'ok' as const, columns: ['a'], rows: [[1]], ms: 0 };
    expect(softF1({ status: 'error', columns: [], rows: [], ms: 0, error: 'x' }, ok)).toBe(0);
    expect(softF1(ok, ok)).toBe(1);
  });
});
