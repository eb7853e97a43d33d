import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { digestQuery } from '../src/execution/digest-query.js';
import type { WireResult } from '../src/execution/pool-protocol.js';
import { runQuery } from '../src/execution/run-query.js';
import { toWire } from '../src/execution/wire-result.js';
import { ROOT, SPIDER } from './helpers/cli.js';
import { spiderDatabases } from './helpers/spider-db.js';

const dev = JSON.parse(readFileSync(join(SPIDER, 'dev.json'), 'utf8')) as { db_id: string; query: string }[];

/** Everything but the time. */
const sameness = ({ ms: _ms, ...rest }: WireResult): Omit<WireResult, 'ms'> => rest;

describe('digestQuery (an execution process that sends only the digest)', () => {
  const { open, close } = spiderDatabases();
  const expectSame = (db: string, sql: string, maxRows = 1_000_000, maxBytes = 64 * 2 ** 20): WireResult => {
    const full = toWire(runQuery(open(db), sql, maxRows, maxBytes), { rows: false, rowSet: true });
    const lean = digestQuery(open(db), sql, maxRows, maxBytes);
    expect(sameness(lean), sql).toEqual(sameness(full));
    return lean;
  };

  it('gives what runQuery and toWire give for every Spider dev gold and three systems\' predictions', () => {
    const predictions = ['c3/predicted_sql.txt', 'resdsql/RESDSQL_3B.sql', 'chatgpt-zero-shot-chang2023/pred.sql']
      .map((f) => join(ROOT, 'data', 'spider', 'predictions', f))
      .map((f) => readFileSync(f, 'utf8').split('\n'));
    let ok = 0;
    let failed = 0;
    try {
      dev.forEach(({ db_id, query }, i) => {
        for (const sql of [query, ...predictions.map((p) => (p[i] ?? '').split('\t')[0]!)]) {
          const r = expectSame(db_id, sql);
          if (r.status === 'ok') ok++;
          else failed++;
        }
      });
    } finally {
      close();
    }
    // Both kinds were compared: results, and the errors of wrong predictions.
    expect(ok).toBeGreaterThan(3500);
    expect(failed).toBeGreaterThan(20);
  });

  it('reads big integers and text that is not UTF-8 as runQuery does, and stops where runQuery stops', () => {
    try {
      for (const sql of [
        // Integers from 2^53 on (exact only as bigint), before and after ordinary rows.
        'SELECT 9007199254740993',
        'SELECT -9007199254740993, 1',
        "SELECT name FROM singer UNION ALL SELECT 9007199254740993 UNION ALL SELECT 'z'",
        'SELECT 9007199254740992 UNION ALL SELECT 9007199254740992.0 UNION ALL SELECT 9007199254740993',
        'SELECT 1e308 * 10, -1e308 * 10',
        // Text that is not UTF-8 (marked undecodable), and UTF-8 text that holds U+FFFD itself.
        "SELECT CAST(x'ff41' AS TEXT) AS t UNION ALL SELECT 'A'",
        "SELECT CAST(x'efbfbd' AS TEXT)",
        // Marked from the text SQLite prepared: here the double-quote fallback's rewrite.
        `SELECT CAST(x'ff41' AS TEXT) AS t WHERE "x" = "x"`,
        `SELECT Name FROM singer WHERE Name <> "zzz"`,
        "SELECT 'a', 3.0, 3, -0.0, NULL, x'00ff', x'', 'it''s'",
        'SELECT 1 UNION ALL SELECT 1.0 UNION ALL SELECT 2',
        // No statement, errors and refusals.
        ';',
        '-- nothing',
        'SELECT nope FROM singer',
        'SELECT * FROM singer; SELECT 1',
        'PRAGMA cache_size = 1',
        "SELECT load_extension('x')",
      ]) {
        expectSame('concert_singer', sql);
      }
      // The row and byte budgets: the same error at the same point.
      const big = 'SELECT T1.name, T2.name FROM singer AS T1, singer AS T2';
      expect(expectSame('concert_singer', big, 5).error).toMatch(/more than 5 rows/);
      expect(expectSame('concert_singer', big, 1_000_000, 300).error).toMatch(/more than 300 bytes/);
      expect(expectSame('concert_singer', big, 36).status).toBe('ok');
      // A budget met exactly passes; one byte less fails (the count is runQuery's, cell by cell).
      const one = "SELECT 'abcd', 7, NULL";
      const exact = 4 + 8 + 8 + 8 + 16;
      expect(expectSame('concert_singer', one, 1, exact).status).toBe('ok');
      expect(expectSame('concert_singer', one, 1, exact - 1).status).toBe('error');
    } finally {
      close();
    }
  });
});
