import { describe, expect, it } from 'vitest';
import { columnsContained, normalizeCell, normalizeResult, sameResult, scaledBy100, strictSubset } from '../../src/audit/normalize.js';
import type { Cell, ExecResult } from '../../src/execution/types.js';

const ok = (rows: Cell[][], columns = rows[0]?.map((_, i) => `c${i}`) ?? []): ExecResult => ({ status: 'ok', columns, rows, ms: 0 });
const norm = (rows: Cell[][]) => normalizeResult(ok(rows));

describe('normalized result agreement', () => {
  it('trims and case-folds strings, reads numeric strings as numbers, merges NULL-likes, tolerates float noise', () => {
    expect(normalizeCell(' France ')).toBe(normalizeCell('france'));
    expect(normalizeCell('12')).toBe(normalizeCell(12));
    expect(normalizeCell('12.50')).toBe(normalizeCell(12.5));
    expect(normalizeCell('NULL')).toBe(normalizeCell(null));
    expect(normalizeCell('')).toBe(normalizeCell(null));
    expect(normalizeCell(0.1 + 0.2)).toBe(normalizeCell(0.3));
    expect(normalizeCell(1n << 60n)).toBe(String(1n << 60n));
    expect(normalizeCell('12')).not.toBe(normalizeCell('12a'));
  });

  it('ignores row order and column order but keeps duplicates', () => {
    expect(sameResult(norm([['a', 1], ['b', 2]]), norm([['b', 2], ['a', 1]]))).toBe(true);
    expect(sameResult(norm([['a', 1], ['b', 2]]), norm([[2, 'b'], [1, 'a']]))).toBe(true);
    expect(sameResult(norm([['a'], ['a']]), norm([['a']]))).toBe(false);
    expect(norm([['a'], ['a']]).setSig).toBe(norm([['a']]).setSig);
    expect(sameResult(norm([['a', 1]]), norm([['a', 2]]))).toBe(false);
  });

  it('treats failed executions as invalid, never equal', () => {
    const bad = normalizeResult({ status: 'error', columns: [], rows: [], error: 'no such table', ms: 0 });
    expect(bad.ok).toBe(false);
    expect(sameResult(bad, bad)).toBe(false);
    expect(normalizeResult(undefined).ok).toBe(false);
  });

  it('finds strict sub-multisets, contained columns and ×100 scaling', () => {
    expect(strictSubset(norm([['a']]), norm([['a'], ['b']]))).toBe(true);
    expect(strictSubset(norm([['a'], ['a']]), norm([['a'], ['b']]))).toBe(false);
    expect(strictSubset(norm([['a'], ['b']]), norm([['a'], ['b']]))).toBe(false);
    expect(columnsContained(norm([['x'], ['y']]), norm([['x', 1], ['y', 2]]))).toBe(true);
    expect(columnsContained(norm([['x', 1], ['y', 2]]), norm([['x'], ['y']]))).toBe(false);
    expect(scaledBy100(norm([[0.25]]), norm([[25]]))).toBe(true);
    expect(scaledBy100(norm([[25]]), norm([[0.25]]))).toBe(true);
    expect(scaledBy100(norm([[3]]), norm([[4]]))).toBe(false);
  });
});
