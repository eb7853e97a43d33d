import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExecutionEngine } from '../src/execution/engine.js';
import type { ExecResult } from '../src/execution/types.js';
import { sqlVariantKey } from '../src/execution/variant-key.js';
import { SPIDER } from './helpers/cli.js';

describe('sqlVariantKey', () => {
  it('folds whitespace runs and ASCII case outside quotes, and keeps token boundaries', () => {
    expect(sqlVariantKey('SELECT count(*) FROM singer')).toBe('select count(*)from singer');
    expect(sqlVariantKey('WITH a AS (SELECT 1) SELECT * FROM A')).toBe('with a as(select 1)select * from a');
    expect(sqlVariantKey('  select\tcount(*)\n\n FROM  Singer ')).toBe('select count(*)from singer');
    // Quoted text is the query's data or a quoted name: copied as it is, doubled quotes included.
    expect(sqlVariantKey(`SELECT 'A  b', "NaMe", \`X.Y\`, [P-Q], 'it''s', "a""B" FROM t`)).toBe(`select 'A  b',"NaMe",\`X.Y\`,[P-Q],'it''s',"a""B" from t`);
    // A space is never added or removed between tokens: `1-1` and `1 - 1` stay apart.
    expect(sqlVariantKey('SELECT 1-1')).not.toBe(sqlVariantKey('SELECT 1 - 1'));
    // Non-ASCII letters stay (SQLite folds only ASCII case); the ASCII ones around them fold.
    expect(sqlVariantKey('SELECT ÄB FROM T')).toBe('select Äb from t');
  });

  it('drops the spaces beside ( ) and , and one final ;, never inside quotes', () => {
    const key = 'select count(*),max(a)from t where b in(1,2)';
    for (const sql of [
      'SELECT count(*), max(a) FROM t WHERE b IN (1, 2)',
      'SELECT count( * ) , max( a ) FROM t WHERE b IN(1,2);',
      'select count (*) ,max (a) from t where b in ( 1 , 2 ) ; ',
      'SELECT count(*),max(a) FROM t WHERE b IN (1,2)\n;\n',
    ]) {
      expect(sqlVariantKey(sql), sql).toBe(key);
    }
    expect(sqlVariantKey(`SELECT 'a , ( b' , 'c ) d' FROM t ;`)).toBe(`select 'a , ( b','c ) d' from t`);
    // Only one ;: Python refuses `;;`, and the text that says so must not share a key with one it runs.
    expect(sqlVariantKey('SELECT 1;;')).not.toBe(sqlVariantKey('SELECT 1'));
    // Beside other operators a space may separate tokens that would otherwise make one.
    expect(sqlVariantKey('SELECT a < = b FROM t')).not.toBe(sqlVariantKey('SELECT a <= b FROM t'));
    expect(sqlVariantKey('SELECT 2 - -1')).toBe('select 2 - -1');
  });

  it('gives no key where a query can name a column by its spelling', () => {
    // An unaliased expression's column is named by its text, spaces included: `count (*)` names
    // it apart from `count(*)`, and a quoted name or a join by name can tell.
    for (const sql of [
      'SELECT * FROM (SELECT count(*) FROM singer) WHERE "count(*)" = 6',
      'SELECT * FROM (SELECT count(*) FROM singer) ORDER BY `count(*)`',
      'SELECT [max (age)] FROM (SELECT max (age) FROM singer)',
      'SELECT * FROM (SELECT count(*) FROM singer) NATURAL JOIN (SELECT count (*) FROM concert)',
      "SELECT * FROM (SELECT count(*) FROM singer) AS a JOIN (SELECT count(*) FROM concert) AS b USING ('count(*)')",
    ]) {
      expect(sqlVariantKey(sql), sql).toBeUndefined();
    }
    // A quoted name with none of those characters is one a bare word could spell too.
    expect(sqlVariantKey('SELECT "Name" FROM singer')).toBe('select "Name" from singer');
    // A word that only contains them is no join.
    expect(sqlVariantKey('SELECT naturally_using FROM t')).toBe('select naturally_using from t');
  });

  it('gives no key where spacing or case could matter', () => {
    for (const sql of [
      'SELECT 1 -- note\nFROM t', 'SELECT /* x */ 1', 'SELECT :Name', 'SELECT ?1', 'SELECT @a', 'SELECT $a', 'SELECT #a',
      "SELECT 'open", 'SELECT "open', 'SELECT [open',
      // Only SELECT and WITH: EXPLAIN's rows quote names as written.
      'EXPLAIN QUERY PLAN SELECT * FROM Singer', 'PRAGMA table_info(Singer)', 'VALUES (1)', 'selected',
    ]) {
      expect(sqlVariantKey(sql), sql).toBeUndefined();
    }
  });
});

describe('one spelling of a query runs once', () => {
  it('shares the rows of texts that differ in spacing and case, each with its own columns and errors', async () => {
    const engine = new ExecutionEngine({ dbRoot: join(SPIDER, 'database'), workers: 1 });
    try {
      const queries = [
        // random() tells one execution from two: shared, both spellings see the same value.
        'SELECT random(), count(*) FROM singer',
        'select  RANDOM( ) ,\n COUNT(*) from SINGER ;',
        // The same rows again, under a different key: run on its own, a different value.
        'SELECT random(), count(*) FROM singer AS s',
        // Not a column of singer: each its own error, naming the column as its text spells it.
        'SELECT random(), count(*) FROM singer WHERE Nme = 1',
        'select random(), count(*) from singer where NME = 1',
        // The outer query names the inner one's column as `count(*)` spells it: the second spelling
        // has no such column, so its "count(*)" is a string and it returns no row. Never shared.
        'SELECT * FROM (SELECT count(*) FROM singer) WHERE "count(*)" = 6',
        'SELECT * FROM (SELECT count (*) FROM singer) WHERE "count(*)" = 6',
        // EXPLAIN's rows name the table as written: never shared.
        'EXPLAIN QUERY PLAN SELECT * FROM Singer',
        'explain query plan select * from singer',
        // TEXT that is not UTF-8: Python's error names the column as this text spells it.
        "SELECT CAST(x'ff41' AS TEXT) AS T",
        "select cast(x'ff41' as text) as t",
      ];
      const results = await engine.run(
        queries.map((sql) => ({ dbId: 'concert_singer', sql })),
        undefined,
        undefined,
        { needRows: false },
      );
      const [a, b, c, d, e, named, namedApart, f, g, h, i] = results;
      expect(a!.status).toBe('ok');
      expect(b!.status).toBe('ok');
      expect(a!.rowSet).toBe(b!.rowSet);
      expect(c!.rowSet).not.toBe(a!.rowSet);
      // Each keeps the column names of its own text.
      expect(a!.columns).toEqual(['random()', 'count(*)']);
      expect(b!.columns).toEqual(['RANDOM( )', 'COUNT(*)']);
      expect(d!.error).toBe('no such column: Nme');
      expect(e!.error).toBe('no such column: NME');
      expect(named!.status).toBe('ok');
      expect(namedApart!.status).toBe('ok');
      expect(named!.rowSet).not.toBe(namedApart!.rowSet);
      expect(f!.status).toBe('ok');
      expect(f!.rowSet).not.toBe(g!.rowSet);
      expect(JSON.stringify(h!.undecodable)).toContain("'T'");
      expect(JSON.stringify(i!.undecodable)).toContain("'t'");
    } finally {
      await engine.close();
    }
  }, 300_000);

  it('shares them whichever process ran the first spelling (the pool keeps one record for all)', async () => {
    const engine = new ExecutionEngine({ dbRoot: join(SPIDER, 'database'), workers: 2 });
    try {
      const run = (sqls: string[]): Promise<ExecResult[]> =>
        engine.run(
          sqls.map((sql) => ({ dbId: 'concert_singer', sql })),
          undefined,
          undefined,
          { needRows: false },
        );
      // Enough queued work (pool.ts GROW_AT_JOBS) for both processes to run.
      await run(Array.from({ length: 3200 }, (_, k) => `SELECT ${k}`));
      expect(engine.workerPids()).toHaveLength(2);
      // random() tells one execution from two. Each spelling's first form goes to whichever process
      // is free; a record per process would have shared only the pairs that met in one (all 24 by
      // chance about once in 2^24).
      const first = await run(Array.from({ length: 24 }, (_, k) => `SELECT random(), ${k} FROM singer`));
      const second = await run(Array.from({ length: 24 }, (_, k) => `select  RANDOM(), ${k}  from SINGER`));
      expect(first.every((r) => r.status === 'ok')).toBe(true);
      expect(second.map((r) => r.rowSet)).toEqual(first.map((r) => r.rowSet));
      expect(new Set(first.map((r) => r.rowSet)).size).toBe(24);
      expect(second[0]!.columns).toEqual(['RANDOM()', '0']);
    } finally {
      await engine.close();
    }
  }, 300_000);
});
