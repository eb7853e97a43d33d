import { describe, expect, it } from 'vitest';
import { birdEqual } from '../src/execution/compare-bird.js';
import { removeDistinct, spiderEqual, spiderExecutedSql, spiderOrderMatters } from '../src/execution/compare-spider.js';
import { pythonFloatRepr } from '../src/values/python-value.js';
import type { Cell, ExecResult } from '../src/execution/types.js';

const ok = (rows: Cell[][]): ExecResult => ({ status: 'ok', columns: rows[0]?.map((_, i) => `c${i}`) ?? [], rows, ms: 0 });
const err: ExecResult = { status: 'error', columns: [], rows: [], error: 'no such table: x', ms: 0 };

describe('bird comparator (set of row tuples, Python equality)', () => {
  it('compares as Python sets: order and duplicates ignored, 1 == 1.0, "1" != 1, NULL == NULL', () => {
    expect(birdEqual(ok([[1], [2], [2]]), ok([[2], [1]]))).toBe(true);
    expect(birdEqual(ok([[1]]), ok([[1.0]]))).toBe(true);
    expect(birdEqual(ok([['1']]), ok([[1]]))).toBe(false);
    expect(birdEqual(ok([[null, 'a']]), ok([[null, 'a']]))).toBe(true);
    expect(birdEqual(ok([[1, 2]]), ok([[2, 1]]))).toBe(false);
  });
  it('compares big integers exactly with floats, as Python does', () => {
    expect(birdEqual(ok([[9007199254740993n]]), ok([[9007199254740992]]))).toBe(false);
    expect(birdEqual(ok([[9007199254740992n]]), ok([[9007199254740992]]))).toBe(true);
  });
  it('scores an error on either side 0 and two empty results 1', () => {
    expect(birdEqual(err, ok([]))).toBe(false);
    expect(birdEqual(ok([]), err)).toBe(false);
    expect(birdEqual(ok([]), ok([]))).toBe(true);
  });
});

describe('spider comparator (test-suite-sql-eval exec mode)', () => {
  it('allows any column permutation but compares rows as multisets', () => {
    expect(spiderEqual(ok([[1, 'a'], [2, 'b']]), ok([['b', 2], ['a', 1]]), false)).toBe(true);
    expect(spiderEqual(ok([[1], [1], [2]]), ok([[1], [2], [2]]), false)).toBe(false);
    expect(spiderEqual(ok([[1, 'a']]), ok([[1, 'a', 'x']]), false)).toBe(false);
  });
  it('respects row order only when asked', () => {
    expect(spiderEqual(ok([[1], [2]]), ok([[2], [1]]), true)).toBe(false);
    expect(spiderEqual(ok([[1], [2]]), ok([[2], [1]]), false)).toBe(true);
  });
  it('finds the one valid permutation among many (more than 3 columns, deterministic)', () => {
    const gold = ok([
      [1, 1, 2, 3, 'x'],
      [1, 2, 2, 3, 'y'],
    ]);
    const pred = ok([
      ['x', 3, 2, 1, 1],
      ['y', 3, 2, 2, 1],
    ]);
    for (let i = 0; i < 20; i++) expect(spiderEqual(gold, pred, false)).toBe(true);
    expect(spiderEqual(gold, ok([['x', 3, 2, 2, 1], ['y', 3, 2, 1, 1]]), false)).toBe(false);
  });
  it("reproduces quick_rej's int/float sort quirk: (1.0, 10) vs (1, 10) is a mismatch", () => {
    // str(1.0)+"<class 'float'>" sorts before "10<class 'int'>", str(1)+"<class 'int'>" after it,
    // so test-suite-sql-eval's unordered rows differ although Python calls the rows equal.
    const real: ExecResult = { ...ok([[1, 10]]), integralReals: [0] };
    expect(spiderEqual(real, ok([[1, 10]]), false)).toBe(false);
    expect(spiderEqual(ok([[1, 10]]), ok([[1, 10]]), false)).toBe(true);
    // One column, or a sort the type does not change: equal, as in Python.
    expect(spiderEqual({ ...ok([[2]]), integralReals: [0] }, ok([[2]]), false)).toBe(true);
    expect(spiderEqual({ ...ok([[2, 'a']]), integralReals: [0] }, ok([[2, 'a']]), false)).toBe(true);
    // BIRD's sets use == only.
    expect(birdEqual(real, ok([[1, 10]]))).toBe(true);
  });
  it('scores an error 0 and two empty results 1', () => {
    expect(spiderEqual(ok([]), ok([]), true)).toBe(true);
    expect(spiderEqual(ok([[1]]), err, false)).toBe(false);
  });
  it('preprocesses queries as the official evaluator does', () => {
    expect(removeDistinct('SELECT DISTINCT name, count(distinct x) FROM t')).toBe('SELECT  name, count( x) FROM t');
    // A DISTINCT inside a string literal is data, not a keyword.
    expect(removeDistinct("SELECT 'distinct' FROM t")).toBe("SELECT 'distinct' FROM t");
    // Only the first statement survives sqlparse.parse(s)[0].
    expect(removeDistinct('SELECT 1; SELECT 2')).toBe('SELECT 1;');
    expect(spiderExecutedSql('SELECT a FROM t WHERE b > = 3 AND c = value ', false, true)).toBe('SELECT a FROM t WHERE b >= 3 AND c = 1');
    // evaluation.py: p_str.replace("value", "1") — every occurrence, case-sensitive, predictions only.
    expect(spiderExecutedSql('SELECT count(*) FROM t WHERE x = "value" OR y > value', false, true)).toBe('SELECT count(*) FROM t WHERE x = "1" OR y > 1');
    expect(spiderExecutedSql("SELECT Value, max_value FROM t WHERE z = 'values'", false, true)).toBe("SELECT Value, max_1 FROM t WHERE z = '1s'");
    expect(spiderExecutedSql("SELECT max_value FROM t", false, false)).toBe('SELECT max_value FROM t');
    // The line is .strip()ped as Python strips (U+00A0 and U+0085 too); an empty text has no
    // statement for sqlparse, so remove_distinct raises and the item scores 0 unexecuted.
    expect(spiderExecutedSql('\u00a0 SELECT 1\u0085', false, true)).toBe('SELECT 1');
    expect(spiderExecutedSql('  ', false, true)).toBeUndefined();
    expect(spiderExecutedSql('', true, true)).toBe('');
    expect(spiderExecutedSql('SELECT YEAR(CURDATE()) - age FROM t', true, true)).toBe('SELECT 2020- age FROM t');
    expect(spiderOrderMatters('SELECT a FROM t ORDER BY a', false)).toBe(true);
    expect(spiderOrderMatters('SELECT a FROM t ORDER  BY a', false)).toBe(false);
  });
  it("formats floats as Python's repr (used in the official row sort key)", () => {
    expect(pythonFloatRepr(1.5)).toBe('1.5');
    expect(pythonFloatRepr(1e16)).toBe('1e+16');
    expect(pythonFloatRepr(0.0001)).toBe('0.0001');
    expect(pythonFloatRepr(0.00001)).toBe('1e-05');
    expect(pythonFloatRepr(123456789.125)).toBe('123456789.125');
  });
});
