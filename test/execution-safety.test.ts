import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExecutionEngine } from '../src/execution/engine.js';
import type { ExecResult } from '../src/execution/types.js';
import { SPIDER } from './helpers/cli.js';

const sha = (f: string): string => createHash('sha256').update(readFileSync(f)).digest('hex');

describe('execution engine on a real Spider database', () => {
  let root: string;
  let dbFile: string;
  let before: string;
  let engine: ExecutionEngine;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'sqlboard-exec-'));
    mkdirSync(join(root, 'flight_2'));
    dbFile = join(root, 'flight_2', 'flight_2.sqlite');
    copyFileSync(join(SPIDER, 'database', 'flight_2', 'flight_2.sqlite'), dbFile);
    before = sha(dbFile);
    engine = new ExecutionEngine({ dbRoot: root, timeoutSec: 2, maxRows: 500, workers: 2 });
  });
  afterAll(async () => {
    await engine.close();
  });

  const run1 = async (sql: string) => (await engine.run([{ dbId: 'flight_2', sql }]))[0]!;

  it('accepts double-quoted string literals as a standard SQLite build does', async () => {
    const r = await run1('SELECT count(*) FROM airlines WHERE Airline = "JetBlue Airways"');
    expect(r.status).toBe('ok');
    expect(r.rows).toEqual([[1]]);
    // A double-quoted name that is a column stays a column.
    const c = await run1('SELECT "Airline" FROM airlines WHERE uid = 1');
    expect(c.rows).toEqual([['United Airlines']]);
    // Mixed: identifier and literal in one query.
    const m = await run1('SELECT "Abbreviation" FROM airlines WHERE "Airline" = "JetBlue Airways"');
    expect(m.rows).toEqual([['JetBlue']]);
  });

  it('keeps duplicate column names and rows as arrays', async () => {
    const r = await run1('SELECT T1.uid, T2.uid FROM airlines AS T1 JOIN airlines AS T2 ON T1.uid = T2.uid WHERE T1.uid <= 2 ORDER BY T1.uid');
    expect(r.columns).toEqual(['uid', 'uid']);
    expect(r.rows).toEqual([
      [1, 1],
      [2, 2],
    ]);
  });

  it('returns integers beyond 2^53 exactly', async () => {
    const r = await run1('SELECT 9007199254740993, -9223372036854775808, 1.5');
    expect(r.rows[0]).toEqual([9007199254740993n, -9223372036854775808n, 1.5]);
  });

  it('reports results above --max-rows as "result too large", not a crash', async () => {
    const r = await run1('SELECT * FROM flights');
    expect(r.status).toBe('error');
    expect(r.error).toMatch(/result too large/);
  });

  it('stops a runaway query at the timeout and gives its CPU back', async () => {
    const pidsBefore = engine.workerPids();
    const [runaway, next] = await engine.run([
      { dbId: 'flight_2', sql: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c' },
      { dbId: 'flight_2', sql: 'SELECT count(*) FROM airports' },
    ]);
    expect(runaway!.status).toBe('timeout');
    expect(runaway!.error).toMatch(/timed out after 2 s/);
    expect(next!.rows).toEqual([[100]]);
    // The process that ran it is gone (killed), and a fresh one took its place.
    const killed = pidsBefore.filter((p) => !engine.workerPids().includes(p));
    expect(killed.length).toBeGreaterThanOrEqual(1);
    await new Promise((r) => setTimeout(r, 300));
    for (const pid of killed) {
      // Gone, or a zombie awaiting its reaping: either way it runs no more.
      const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8') : '';
      expect(stat === '' || /^\d+ \(.*\) Z /.test(stat), stat).toBe(true);
    }
  });

  it('refuses every statement that could change the database, and the file stays byte-identical', async () => {
    const target = join(root, 'copy.db');
    const attempts = [
      'DROP TABLE airlines',
      'DELETE FROM airlines',
      "INSERT INTO airlines VALUES (99, 'x', 'x', 'x')",
      "UPDATE airlines SET Airline = 'x'",
      'CREATE TABLE t(x)',
      'CREATE TEMP TABLE t(x)',
      `ATTACH '${join(root, 'new.db')}' AS other`,
      'PRAGMA user_version = 7',
      'PRAGMA journal_mode = WAL',
      'PRAGMA query_only = 0',
      `VACUUM INTO '${target}'`,
      "SELECT load_extension('/tmp/nothing')",
      'SELECT 1; DROP TABLE airlines',
      "INSERT INTO airlines VALUES (98, 'y', 'y', 'y') RETURNING uid",
    ];
    const results = await engine.run(attempts.map((sql) => ({ dbId: 'flight_2', sql })));
    results.forEach((r, i) => {
      expect(r.status, attempts[i]).toBe('error');
    });
    expect(sha(dbFile)).toBe(before);
    expect(existsSync(target)).toBe(false);
    expect(readdirSync(join(root, 'flight_2'))).toEqual(['flight_2.sqlite']);
    expect(readdirSync(root).sort()).toEqual(['flight_2']);
    // Reading is still allowed, including harmless PRAGMAs.
    expect((await run1('PRAGMA table_info(airlines)')).status).toBe('ok');
  });

  it('runs 150,000 distinct queries in one call (more than a spread argument list can hold)', async () => {
    const n = 150_000;
    const results = await engine.run(Array.from({ length: n }, (_, i) => ({ dbId: 'flight_2', sql: `SELECT ${i}` })));
    expect(results).toHaveLength(n);
    expect(results.every((r, i) => r.status === 'ok' && r.rows[0]![0] === i)).toBe(true);
  });

  it('refuses a --timeout or --max-rows it cannot honour', () => {
    expect(() => new ExecutionEngine({ dbRoot: root, timeoutSec: 0 })).toThrow(/--timeout must be a positive number/);
    for (const maxRows of [-1, 2.5, Number.NaN]) {
      expect(() => new ExecutionEngine({ dbRoot: root, maxRows })).toThrow(/--max-rows must be a non-negative integer/);
    }
  });

  it('names an unknown database and what to fix', async () => {
    await expect(engine.run([{ dbId: 'no_such_db', sql: 'SELECT 1' }])).rejects.toThrow(/unknown database "no_such_db".*--db-root/);
    expect(engine.hasDatabase('no_such_db')).toBe(false);
    expect(engine.hasDatabase('flight_2')).toBe(true);
  });
});

describe('REAL values that are integral', () => {
  it('are marked, so that the Spider comparator can tell 3.0 from 3 as Python does', async () => {
    const engine = new ExecutionEngine({ dbRoot: join(SPIDER, 'database'), workers: 1 });
    try {
      const [r] = await engine.run([{ dbId: 'flight_2', sql: 'SELECT 1.0, 10, avg(3), 2.5, 7' }]);
      expect(r!.rows).toEqual([[1, 10, 3, 2.5, 7]]);
      expect(r!.integralReals).toEqual([0, 2]);
    } finally {
      await engine.close();
    }
  });
});

describe('the run store keeps what an execution recorded', () => {
  it('big integers, blobs and integral-REAL marks survive a reuse', async () => {
    const { openRunStore } = await import('../src/store/run-store.js');
    const file = join(mkdtempSync(join(tmpdir(), 'sqlboard-store-')), 'store.db');
    const sql = "SELECT 1.0, 9007199254740993, x'00ff', NULL, 'a'";
    const first = openRunStore(file);
    const e1 = new ExecutionEngine({ dbRoot: join(SPIDER, 'database'), workers: 1, store: first });
    const [fresh] = await e1.run([{ dbId: 'flight_2', sql }]);
    await e1.close();
    first.close();
    const second = openRunStore(file);
    const e2 = new ExecutionEngine({ dbRoot: join(SPIDER, 'database'), workers: 1, store: second });
    const [reused] = await e2.run([{ dbId: 'flight_2', sql }]);
    expect(e2.stats).toMatchObject({ executed: 0, reused: 1 });
    await e2.close();
    second.close();
    expect({ ...reused, ms: 0 }).toEqual({ ...fresh, ms: 0 });
    expect(reused!.integralReals).toEqual([0]);
  });

  it('a result is reused only under a --timeout it finished within', async () => {
    const { openRunStore } = await import('../src/store/run-store.js');
    const file = join(mkdtempSync(join(tmpdir(), 'sqlboard-store-')), 'store.db');
    const sql = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 3000000) SELECT count(*) FROM c';
    const runWith = async (timeoutSec: number) => {
      const store = openRunStore(file);
      const engine = new ExecutionEngine({ dbRoot: join(SPIDER, 'database'), workers: 1, timeoutSec, store });
      try {
        const [r] = await engine.run([{ dbId: 'flight_2', sql }]);
        return { r: r!, stats: { ...engine.stats } };
      } finally {
        await engine.close();
        store.close();
      }
    };
    const slow = await runWith(30);
    expect(slow.r.status).toBe('ok');
    expect((await runWith(30)).stats).toMatchObject({ executed: 0, reused: 1 });
    // Under a limit it did not finish within (a tenth of its own time, so on any machine), it runs
    // again and times out, as a fresh run would.
    const strict = await runWith(Math.min(0.05, slow.r.ms / 10_000));
    expect(strict.stats).toMatchObject({ executed: 1, reused: 0 });
    expect(strict.r.status).toBe('timeout');
  });

  it('needRows: false keeps rows out of this process: bird verdicts come from row-set digests, executed or from the store', async () => {
    const { openRunStore } = await import('../src/store/run-store.js');
    const { birdEqual } = await import('../src/execution/compare-bird.js');
    const file = join(mkdtempSync(join(tmpdir(), 'sqlboard-store-')), 'store.db');
    // Same set in another order and with a repeat; a different set; an error.
    const reqs = [
      'SELECT uid, Airline FROM airlines WHERE uid <= 3',
      'SELECT uid, Airline FROM airlines WHERE uid <= 3 UNION ALL SELECT uid, Airline FROM airlines WHERE uid = 2 ORDER BY uid DESC',
      'SELECT uid, Airline FROM airlines WHERE uid <= 4',
      'SELECT nope FROM airlines',
    ].map((sql) => ({ dbId: 'flight_2', sql }));
    const plain = new ExecutionEngine({ dbRoot: join(SPIDER, 'database'), workers: 1 });
    const withRows = await plain.run(reqs).finally(() => plain.close());
    const expected = [1, 2, 3].map((i) => birdEqual(withRows[0]!, withRows[i]!));
    expect(expected).toEqual([true, false, false]);
    for (const round of ['executed', 'reused'] as const) {
      const store = openRunStore(file);
      const lean = new ExecutionEngine({ dbRoot: join(SPIDER, 'database'), workers: 1, store });
      try {
        const heard: ExecResult[] = [];
        await lean.run(reqs, undefined, (i, r) => (heard[i] = r), { keepRows: false, needRows: false });
        expect(lean.stats).toMatchObject(round === 'executed' ? { executed: 4 } : { reused: 4 });
        expect(heard.every((r) => r.rows.length === 0)).toBe(true);
        expect(heard[0]!.rowSet).toMatch(/^[A-Za-z0-9+/]{43}=$/);
        expect([1, 2, 3].map((i) => birdEqual(heard[0]!, heard[i]!))).toEqual(expected);
        // The store kept digests only: a caller that needs the rows runs the query again and gets them.
        if (round === 'reused') {
          const executed = lean.stats.executed;
          expect((await lean.run([reqs[2]!]))[0]!.rows).toHaveLength(4);
          expect(lean.stats.executed).toBe(executed + 1);
        }
      } finally {
        await lean.close();
        store.close();
      }
    }
  });

  it('keepRows: false hands rows to onResult only; results read from the store come back without rows too', async () => {
    const { openRunStore } = await import('../src/store/run-store.js');
    const file = join(mkdtempSync(join(tmpdir(), 'sqlboard-store-')), 'store.db');
    const sql = 'SELECT uid, Airline FROM airlines WHERE uid <= 3 ORDER BY uid';
    for (const round of ['executed', 'reused'] as const) {
      const store = openRunStore(file);
      const engine = new ExecutionEngine({ dbRoot: join(SPIDER, 'database'), workers: 1, store });
      const heard: ExecResult[] = [];
      try {
        const [returned] = await engine.run([{ dbId: 'flight_2', sql }], undefined, (_i, r) => heard.push(r), { keepRows: false });
        expect(engine.stats).toMatchObject(round === 'executed' ? { executed: 1, reused: 0 } : { executed: 0, reused: 1 });
        expect(heard).toHaveLength(1);
        expect(heard[0]!.rows).toHaveLength(3);
        expect(returned).toMatchObject({ status: 'ok', columns: ['uid', 'Airline'] });
        expect(returned!.rows).toEqual([]);
        // Asked again, the engine has kept no rows of its own: it reads the store again.
        const again: ExecResult[] = [];
        await engine.run([{ dbId: 'flight_2', sql }], undefined, (_i, r) => again.push(r), { keepRows: false });
        expect(again[0]!.rows).toEqual(heard[0]!.rows);
        expect(again[0]).not.toBe(heard[0]);
      } finally {
        await engine.close();
        store.close();
      }
    }
  });
});
