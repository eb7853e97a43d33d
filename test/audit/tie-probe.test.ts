import { describe, expect, it } from 'vitest';
import { tieFromProbe, tieProbe } from '../../src/audit/tie-probe.js';
import type { Cell, ExecResult } from '../../src/execution/types.js';

const ok = (rows: Cell[][]): ExecResult => ({ status: 'ok', columns: [], rows, ms: 0 });

describe('tie probe', () => {
  it('appends the ORDER BY keys to the SELECT list and asks for one more row', () => {
    const p = tieProbe('SELECT name FROM stadium ORDER BY capacity DESC LIMIT 1;')!;
    expect(p.sql).toBe('SELECT name, capacity FROM stadium ORDER BY capacity DESC LIMIT 2');
    expect(p.limit).toBe(1);
    expect(p.keys).toBe(1);
    const q = tieProbe('SELECT T1.a FROM t AS T1 GROUP BY T1.b ORDER BY count(*) DESC, T1.b LIMIT 3')!;
    expect(q.sql).toBe('SELECT T1.a, count(*), T1.b FROM t AS T1 GROUP BY T1.b ORDER BY count(*) DESC, T1.b LIMIT 4');
    expect(q.keys).toBe(2);
  });

  it('skips queries it cannot probe safely', () => {
    expect(tieProbe('SELECT name FROM t ORDER BY a')).toBeUndefined();
    expect(tieProbe('SELECT name FROM t LIMIT 1')).toBeUndefined();
    expect(tieProbe('SELECT a FROM t UNION SELECT a FROM u ORDER BY a LIMIT 1')).toBeUndefined();
    expect(tieProbe('SELECT a FROM t ORDER BY a LIMIT 1 OFFSET 2')).toBeUndefined();
    // A LIMIT inside a subquery is not the top-level one.
    expect(tieProbe('SELECT a FROM t WHERE b = (SELECT b FROM u ORDER BY c LIMIT 1)')).toBeUndefined();
  });

  it('finds a tie only when rows N and N+1 share the sort key', () => {
    const p = tieProbe('SELECT name FROM s ORDER BY age LIMIT 1')!;
    expect(tieFromProbe(p, ok([['a', 20], ['b', 20]]))).toBe(true);
    expect(tieFromProbe(p, ok([['a', 20], ['b', 21]]))).toBe(false);
    expect(tieFromProbe(p, ok([['a', 20]]))).toBe(false);
    expect(tieFromProbe(p, { status: 'error', columns: [], rows: [], error: 'x', ms: 0 })).toBeUndefined();
  });
});

describe('value probe', () => {
  it("relaxes col = 'value' tests to TRIM(col) LIKE 'value'", async () => {
    const { valueProbe, isBlank } = await import('../../src/audit/value-probe.js');
    expect(valueProbe('SELECT AirportName FROM AIRPORTS WHERE City = "Aberdeen"')).toBe("SELECT AirportName FROM AIRPORTS WHERE TRIM(City) LIKE 'Aberdeen' ESCAPE '\\'");
    expect(valueProbe("SELECT count(*) FROM t AS T1 WHERE T1.name = 'it''s 50%'")).toBe("SELECT count(*) FROM t AS T1 WHERE TRIM(T1.name) LIKE 'it''s 50\\%' ESCAPE '\\'");
    expect(valueProbe('SELECT a FROM t WHERE b = 3')).toBeUndefined();
    expect(isBlank(ok([]))).toBe(true);
    expect(isBlank(ok([[null, null]]))).toBe(true);
    expect(isBlank(ok([[0]]))).toBe(true);
    expect(isBlank(ok([[0], [1]]))).toBe(false);
    expect(isBlank(ok([['x']]))).toBe(false);
  });
});

describe('set-operation probe', () => {
  it('re-runs INTERSECT/EXCEPT over names on row identities', async () => {
    const { setOpProbe } = await import('../../src/audit/setop-probe.js');
    expect(
      setOpProbe('SELECT T2.name FROM Friend AS T1 JOIN Highschooler AS T2 ON T1.student_id = T2.id INTERSECT SELECT T2.name FROM Likes AS T1 JOIN Highschooler AS T2 ON T1.liked_id = T2.id'),
    ).toBe(
      'SELECT name FROM Highschooler WHERE rowid IN (SELECT t2.rowid FROM Friend AS T1 JOIN Highschooler AS T2 ON T1.student_id = T2.id INTERSECT SELECT t2.rowid FROM Likes AS T1 JOIN Highschooler AS T2 ON T1.liked_id = T2.id)',
    );
    expect(setOpProbe('SELECT name FROM stadium EXCEPT SELECT T2.name FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id')).toContain(
      'SELECT stadium.rowid FROM stadium EXCEPT SELECT t2.rowid',
    );
    // Attribute values (not names) are the answer itself; other tables in the two arms; UNION: not probed.
    expect(setOpProbe('SELECT country FROM singer WHERE age > 40 INTERSECT SELECT country FROM singer WHERE age < 30')).toBeUndefined();
    expect(setOpProbe('SELECT name FROM a INTERSECT SELECT name FROM b')).toBeUndefined();
    expect(setOpProbe('SELECT name FROM a UNION SELECT name FROM a WHERE x = 1')).toBeUndefined();
  });
});

describe('case-only value probe and cartesian joins', () => {
  it('relaxes case without trimming, and spots JOIN without a condition', async () => {
    const { valueProbe } = await import('../../src/audit/value-probe.js');
    const { sqlShape } = await import('../../src/audit/sql-shape.js');
    expect(valueProbe('SELECT sum(population) FROM country WHERE continent = "north america"', { trim: false })).toBe(
      "SELECT sum(population) FROM country WHERE continent LIKE 'north america' ESCAPE '\\'",
    );
    expect(sqlShape('SELECT T1.a FROM p AS T1 JOIN t AS T2 WHERE cost < 3').crossJoin).toBe(true);
    expect(sqlShape('SELECT T1.a FROM p AS T1 JOIN t AS T2 ON T1.id = T2.pid').crossJoin).toBe(false);
    expect(sqlShape('SELECT T1.a FROM p AS T1 JOIN t AS T2 WHERE T1.id = T2.pid').crossJoin).toBe(false);
    expect(sqlShape('SELECT a FROM p JOIN t USING (id)').crossJoin).toBe(false);
  });
});
