import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExecutionEngine, MAX_RESULT_BYTES } from '../src/execution/engine.js';
import { SPIDER } from './helpers/cli.js';

const DB_ROOT = join(SPIDER, 'database');
const rows = (n: number): string => `(WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < ${n}) SELECT x FROM c)`;

describe('the byte budget per result (--max-result-bytes)', () => {
  it('is counted while rows are stepped: over it is "result too large", under it the rows come back', async () => {
    // 100 rows of one 1,000-character string: 100 × (1,000 + 8 + 16) = 102,400 bytes counted.
    const sql = `SELECT printf('%.1000c', 'a') FROM ${rows(100)}`;
    for (const [budget, expected] of [[102_399, 'error'], [102_400, 'ok']] as const) {
      const engine = new ExecutionEngine({ dbRoot: DB_ROOT, workers: 1, maxResultBytes: budget });
      try {
        const [r] = await engine.run([{ dbId: 'flight_2', sql }]);
        expect(r!.status, r!.error).toBe(expected);
        if (expected === 'error') expect(r!.error).toBe(`result too large: more than ${budget.toLocaleString('en-US')} bytes (--max-result-bytes)`);
        else expect(r!.rows).toHaveLength(100);
      } finally {
        await engine.close();
      }
    }
  });

  it('refuses a budget the run store could not hold, and a memory cap below what a process needs', () => {
    expect(() => new ExecutionEngine({ dbRoot: DB_ROOT, maxResultBytes: MAX_RESULT_BYTES + 1 })).toThrow(`--max-result-bytes must be a whole number from 0 to ${MAX_RESULT_BYTES.toLocaleString('en-US')}`);
    expect(() => new ExecutionEngine({ dbRoot: DB_ROOT, maxResultBytes: 1.5 })).toThrow(/--max-result-bytes/);
    expect(() => new ExecutionEngine({ dbRoot: DB_ROOT, maxMemoryMb: 100 })).toThrow(/--max-memory-mb must be at least 192/);
  });
});

describe('the memory cap per execution process (--max-memory-mb)', () => {
  it('ends a memory bomb as "memory limit", replaces the process, and the next query runs', async () => {
    const engine = new ExecutionEngine({ dbRoot: DB_ROOT, workers: 1, maxMemoryMb: 192, timeoutSec: 60 });
    try {
      await engine.run([{ dbId: 'flight_2', sql: 'SELECT 1' }]);
      const before = engine.workerPids();
      // Not a result (one row, one integer): the memory is SQLite's, where no byte budget sees it.
      const bomb = `SELECT length(group_concat(hex(zeroblob(1000000)))) FROM ${rows(400)}`;
      const [r, next] = await engine.run([
        { dbId: 'flight_2', sql: bomb },
        { dbId: 'flight_2', sql: 'SELECT count(*) FROM airports' },
      ]);
      expect(r!.status).toBe('error');
      expect(r!.error).toMatch(/^memory limit: the query's process reached \d+ MB \(--max-memory-mb 192\)$/);
      expect(next!.rows).toEqual([[100]]);
      expect(engine.workerPids()).not.toEqual(before);
    } finally {
      await engine.close();
    }
  }, 300_000);
});

describe('--workers', () => {
  it('is capped by the cores, with a note saying so; the processes past the first start when the queued work is worth them', async () => {
    // A query timeout far above what the slow query takes even on a loaded machine: this test is not about timeouts.
    const engine = new ExecutionEngine({ dbRoot: DB_ROOT, workers: 300, timeoutSec: 600 });
    try {
      expect(engine.notes).toEqual([`--workers 300 lowered to ${availableParallelism()}: more processes than ${availableParallelism()} cores would only compete`]);
      // With no run store there is nothing to reuse: the first process boots at once.
      expect(engine.workerPids().length).toBe(1);
      // A little work does not repay another process's start.
      await engine.run(Array.from({ length: 300 }, (_, i) => ({ dbId: 'concert_singer', sql: `SELECT ${i}` })));
      expect(engine.workerPids().length).toBe(1);
      // A query that runs for seconds with others queued behind it: the rest of the pool starts and takes them.
      const slow = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 30000000) SELECT count(*) FROM c';
      const queued = Array.from({ length: 20 }, (_, i) => ({ dbId: 'concert_singer', sql: `SELECT ${i}, 'queued'` }));
      const results = await engine.run([{ dbId: 'concert_singer', sql: slow }, ...queued]);
      expect(results.map((r) => r.status)).toEqual(results.map(() => 'ok'));
      expect(engine.workerPids().length).toBe(availableParallelism());
    } finally {
      await engine.close();
    }
    expect(() => new ExecutionEngine({ dbRoot: DB_ROOT, workers: 0 })).toThrow(/--workers must be a whole number ≥ 1/);
  });
});
