import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProcessPool } from '../src/execution/pool.js';
import { SPIDER } from './helpers/cli.js';

const DB = join(SPIDER, 'database', 'concert_singer', 'concert_singer.sqlite');
/** A query that counts to n (~0.25 µs a step): its time, but never its rows, grows with n. */
const counting = (n: number, tag: number): string => `WITH RECURSIVE c(x) AS (SELECT ${tag} UNION ALL SELECT x + 1 FROM c WHERE x < ${n}) SELECT count(*) FROM c`;
const DIGEST = { rows: false, rowSet: true };

/** A pool whose two processes both run (GROW_AT_JOBS queued jobs start the second at once). */
async function twoProcesses(): Promise<ProcessPool> {
  const pool = new ProcessPool({ size: 2, timeoutMs: 60_000, maxRows: 1_000_000, maxBytes: 1 << 26 });
  await pool.run(Array.from({ length: 3200 }, (_, k) => ({ jobId: k, dbPath: DB, sql: `SELECT ${k}` })), DIGEST, () => {});
  expect(pool.pids()).toHaveLength(2);
  return pool;
}

/**
 * At the end of a run one process may still hold jobs it was sent and has not started while the
 * other has nothing left (pool.ts takeTail): the busy one gives back the later half of them at its
 * next job's end (exec-child.ts 'release'), and the idle one runs them.
 */
describe('the pool at the end of a run', () => {
  it('a process that ran out of work takes over jobs another holds and has not started', async () => {
    const pool = await twoProcesses();
    try {
      // Eight jobs of equal length go out as one batch (PIPELINE_JOBS) to the first process, which
      // alone would answer them in order.
      const order: number[] = [];
      const jobs = Array.from({ length: 8 }, (_, k) => ({ jobId: k, dbPath: DB, sql: counting(600_000, k) }));
      await pool.run(jobs, DIGEST, (jobId, result) => {
        expect(result.status).toBe('ok');
        order.push(jobId);
      });
      // Each answered once; the later ones, run by the other process, before some earlier ones.
      expect([...order].sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      expect(order).not.toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    } finally {
      await pool.close();
    }
  }, 300_000);

  it('answers every job once when the busy process is inside a long query, and serves the next run', async () => {
    const pool = await twoProcesses();
    try {
      const order: number[] = [];
      // The first job outlasts the rest together; the other process asks while it runs.
      const jobs = [counting(4_000_000, 0), ...Array.from({ length: 7 }, (_, k) => counting(100_000, k + 1))].map((sql, jobId) => ({ jobId, dbPath: DB, sql }));
      await pool.run(jobs, DIGEST, (jobId) => order.push(jobId));
      expect([...order].sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      // And the pool serves the next run.
      const next: string[] = [];
      await pool.run([{ jobId: 0, dbPath: DB, sql: 'SELECT count(*) FROM singer' }], { rows: true, rowSet: false }, (_id, r) => next.push(r.status));
      expect(next).toEqual(['ok']);
    } finally {
      await pool.close();
    }
  }, 300_000);
});
