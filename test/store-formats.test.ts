import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBenchmark } from '../src/benchmark/load-questions.js';
import { loadPredictions } from '../src/benchmark/load-predictions.js';
import { digestQuery } from '../src/execution/digest-query.js';
import { databaseFile } from '../src/execution/engine.js';
import { emInputs } from '../src/execution/em-inputs.js';
import { runExactMatch } from '../src/execution/em-run.js';
import { EM_FORMAT } from '../src/execution/em-store.js';
import { HARDNESS_FORMAT } from '../src/execution/hardness-store.js';
import type { WireResult } from '../src/execution/pool-protocol.js';
import { ExecutionStore, RESULT_FORMAT } from '../src/execution/result-store.js';
import { runQuery } from '../src/execution/run-query.js';
import { enableDqs } from '../src/execution/dqs.js';
import { toWire } from '../src/execution/wire-result.js';
import { spiderHardness } from '../src/sql/spider-hardness.js';
import { openRunStore } from '../src/store/run-store.js';
import { SPIDER } from './helpers/cli.js';
import { DQS_EXTENSION, openAsExecuted } from './helpers/spider-db.js';

/**
 * The run store's kept results are keyed by a format number (RESULT_FORMAT, EM_FORMAT,
 * HARDNESS_FORMAT), bumped by hand whenever what is kept would come out differently, so that a
 * re-run never mixes results of two versions (a gold's digest kept by one version against a
 * prediction's digest made by the next would score a right answer wrong). A change that forgets the
 * bump passes every other test: each checks one version against itself or against the official
 * verdicts. Here each format's output on real data is fingerprinted and recorded beside its number
 * (store-formats.json): a changed fingerprint under the same number fails and says what to bump.
 * What it does not see: a result only BIRD's data would show, and the execution process's own steps
 * around these functions (a text prepared only, for another spelling's rows: exec-child.ts shared).
 */
const RECORDED = join(import.meta.dirname, 'store-formats.json');

interface Recorded {
  format: number;
  fingerprint: string;
}

function recorded(): Record<'result' | 'em' | 'hardness', Recorded> {
  return JSON.parse(readFileSync(RECORDED, 'utf8')) as Record<'result' | 'em' | 'hardness', Recorded>;
}

function fingerprint(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}

/** What the test expects of a format: its recorded fingerprint under its number, or what to do. */
function check(name: 'result' | 'em' | 'hardness', constant: string, where: string, format: number, actual: string): void {
  const was = recorded()[name];
  const fix =
    was.format === format
      ? `what the run store keeps (${name}) changed under the same ${constant} ${format} (a change of the code, or of a dependency: better-sqlite3 brings SQLite): bump ${constant} in ${where}, say why in the comment above it, then record in test/store-formats.json "${name}": {"format": ${format + 1}, "fingerprint": "${actual}"}`
      : `${constant} is now ${format}: record in test/store-formats.json "${name}": {"format": ${format}, "fingerprint": "${actual}"}`;
  expect({ format, fingerprint: actual }, fix).toEqual(was);
}

const DB_ROOT = join(SPIDER, 'database');

/** An in-memory connection for the edge values, with double-quoted strings on as every execution connection. */
function inMemory(): Database.Database {
  const db = new Database(':memory:');
  expect(enableDqs(db, DQS_EXTENSION)).toBeUndefined();
  return db;
}
const SYSTEMS = ['predictions/c3/predicted_sql.txt', 'predictions/resdsql/RESDSQL_3B.sql'];

/** Cells at the edges of what the stored form and the digest spell: numbers, text, bytes, errors, repeats. */
const EDGE_QUERIES = [
  'SELECT 1, 1.0, -0.0, 2.5, 0.1 + 0.2, 9007199254740993, 9223372036854775807, -9223372036854775808',
  'SELECT 1e308 * 10, -1e308 * 10, 18446744073709551616.0, 1e300, 2e-300',
  "SELECT X'00FF', X'', 'é', '', NULL, 'a''b', char(128512), char(0)",
  "SELECT CAST(X'C328' AS TEXT), CAST(X'61FF62' AS TEXT)",
  'SELECT 1 UNION ALL SELECT 1.0 UNION ALL SELECT 2 UNION ALL SELECT 2',
  "SELECT 'x' WHERE 0",
  'SELECT * FROM no_such_table',
  'SELECT 1; SELECT 2',
];

describe('the run store\'s formats', () => {
  it('RESULT_FORMAT: every Spider dev gold, two systems\' predictions and edge values, each kept whole and as a digest, are stored as recorded', () => {
    const bench = loadBenchmark(join(SPIDER, 'dev.json'));
    const jobs = new Map<string, { dbId: string; sql: string }>();
    const add = (dbId: string, sql: string): void => void jobs.set(`${dbId}\n${sql}`, { dbId, sql });
    const dbOf = new Map(bench.tasks.map((t) => [t.id, t.dbId]));
    for (const t of bench.tasks) add(t.dbId, t.goldSql);
    for (const file of SYSTEMS) for (const [taskId, p] of loadPredictions(join(SPIDER, file), bench, file).byTask) add(dbOf.get(taskId)!, p.sql);
    expect(jobs.size).toBeGreaterThan(2000);
    const store = openRunStore(':memory:');
    const kept = new ExecutionStore(store);
    const connections = new Map<string, Database.Database>();
    const connection = (dbId: string): Database.Database => {
      let db = connections.get(dbId);
      if (!db) connections.set(dbId, (db = dbId === ':edge:' ? inMemory() : openAsExecuted(databaseFile(DB_ROOT, dbId))));
      return db;
    };
    const save = (dbId: string, sql: string, maxRows: number, result: WireResult): void =>
      // ms is the one field that differs run to run: what is kept of it is not a format.
      kept.save(ExecutionStore.key(dbId, sql, maxRows, 1e9), dbId, sql, { ...result, ms: 0 }, 30_000, maxRows);
    try {
      for (const q of EDGE_QUERIES) add(':edge:', q);
      for (const { dbId, sql } of jobs.values()) {
        const db = connection(dbId);
        save(dbId, sql, 100_000, toWire(runQuery(db, sql, 100_000, 1e9), { rows: true, rowSet: true }));
        save(dbId, sql, 100_001, digestQuery(db, sql, 100_001, 1e9));
      }
      kept.flush();
      const rows = store.db
        .prepare('SELECT db_sha256, sql, max_rows, status, columns, rows, error, timeout_ms, row_set FROM executions ORDER BY db_sha256, sql, max_rows')
        .raw(true)
        .all();
      expect(rows.length).toBe(jobs.size * 2);
      check('result', 'RESULT_FORMAT', 'src/execution/result-store.ts', RESULT_FORMAT, fingerprint(rows));
    } finally {
      for (const db of connections.values()) db.close();
      store.close();
    }
  });

  it('EM_FORMAT and HARDNESS_FORMAT: two systems\' exact-match items and every Spider dev gold\'s hardness', () => {
    const bench = loadBenchmark(join(SPIDER, 'dev.json'));
    const systems = SYSTEMS.map((f) => loadPredictions(join(SPIDER, f), bench, f));
    const items = runExactMatch(bench, systems, emInputs(join(SPIDER, 'dev.json'), DB_ROOT, join(SPIDER, 'tables.json'), true)!);
    expect(items.flat().filter((i) => i !== undefined).length).toBeGreaterThan(2000);
    check('em', 'EM_FORMAT', 'src/execution/em-store.ts', EM_FORMAT, fingerprint(items));
    check('hardness', 'HARDNESS_FORMAT', 'src/execution/hardness-store.ts', HARDNESS_FORMAT, fingerprint(bench.tasks.map((t) => spiderHardness(t.goldSql))));
  });
});
