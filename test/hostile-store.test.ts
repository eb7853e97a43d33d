import { copyFileSync, mkdtempSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExecutionEngine } from '../src/execution/engine.js';
import { UserError } from '../src/errors.js';
import { openRunStore } from '../src/store/run-store.js';
import { runCli, SPIDER } from './helpers/cli.js';

const DB_ROOT = join(SPIDER, 'database');
const queries = (n: number) => Array.from({ length: n }, (_, i) => ({ dbId: 'flight_2', sql: `SELECT ${i}, Airline FROM airlines` }));

/** Fills a store with `n` executions, as a run would. */
async function fill(file: string, n: number): Promise<void> {
  const store = openRunStore(file);
  const engine = new ExecutionEngine({ dbRoot: DB_ROOT, workers: 1, store });
  try {
    await engine.run(queries(n));
  } finally {
    await engine.close();
    store.close();
  }
}

describe('run-store failures are user errors naming the file and the way out', () => {
  it('a garbage, a truncated and an unwritable store: exit 2 before any work, no stack trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sqlboard-store-bad-'));
    const questions = join(dir, 'q.json');
    writeFileSync(questions, JSON.stringify([{ db_id: 'flight_2', query: 'SELECT count(*) FROM airlines', question: 'q' }]));
    const preds = join(dir, 'p.sql');
    writeFileSync(preds, 'SELECT count(*) FROM airlines\n');
    const garbage = join(dir, 'garbage.db');
    writeFileSync(garbage, 'not a database, just some text '.repeat(200));
    const truncated = join(dir, 'truncated.db');
    await fill(join(dir, 'full.db'), 3000);
    copyFileSync(join(dir, 'full.db'), truncated);
    truncateSync(truncated, Math.floor(statSync(truncated).size / 2));
    const cases: [string, RegExp][] = [
      [garbage, /the run store .*garbage\.db is damaged or not a sqlboard store \(SQLITE_NOTADB.*move it away rather than delete it \(it may hold paid LLM answers that could not be counted.*or give another --store/],
      [truncated, /the run store .*truncated\.db is damaged or not a sqlboard store \(SQLITE_CORRUPT/],
      ['/proc/sqlboard.db', /cannot write the run store \/proc\/sqlboard\.db \(SQLITE_CANTOPEN.*give a --store in a writable directory/],
      ['/proc/no-such-dir/sqlboard.db', /cannot write the run store \/proc\/no-such-dir\/sqlboard\.db \(E[A-Z]+.*give a --store in a writable directory/],
    ];
    for (const [store, message] of cases) {
      const r = await runCli(['score', '--questions', questions, '--db-root', DB_ROOT, '--system', `s=${preds}`, '--store', store]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
    }
  }, 300_000);

  it('a full disk mid-run stops the run cleanly, keeps what was stored, and the re-run resumes', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sqlboard-store-full-')), 'store.db');
    // The disk fills up: SQLite's max_page_count gives SQLITE_FULL exactly as a full disk does.
    const store = openRunStore(file);
    const engine = new ExecutionEngine({ dbRoot: DB_ROOT, workers: 2, store });
    const pages = Number(store.db.pragma('page_count', { simple: true }));
    store.db.pragma(`max_page_count = ${pages + 40}`);
    let error: unknown;
    try {
      await engine.run(queries(4000));
    } catch (e) {
      error = e;
    } finally {
      await engine.close();
      store.close();
    }
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toMatch(
      /^the disk holding the run store .*store\.db is full \(SQLITE_FULL: database or disk is full\): every result stored so far is kept; free space \(or give another --store\) and re-run the same command to resume$/,
    );
    expect(engine.stats.executed).toBeGreaterThan(0);
    expect(engine.stats.executed).toBeLessThan(4000);

    // Space is back: the same run resumes from what was kept and gives every result.
    const again = openRunStore(file);
    const resumed = new ExecutionEngine({ dbRoot: DB_ROOT, workers: 2, store: again });
    try {
      const results = await resumed.run(queries(4000));
      // Saves go in batches: what the failed batch held runs again, nothing kept runs twice.
      expect(resumed.stats.reused).toBeGreaterThan(0);
      expect(resumed.stats.reused).toBeLessThanOrEqual(engine.stats.executed);
      expect(resumed.stats.reused + resumed.stats.executed).toBe(4000);
      expect(results.every((r, i) => r.status === 'ok' && r.rows[0]![0] === i)).toBe(true);
    } finally {
      await resumed.close();
      again.close();
    }
  }, 300_000);
});
