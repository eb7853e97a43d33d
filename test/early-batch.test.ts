import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { forkExecProcess } from '../src/execution/exec-process.js';
import type { ChildMessage, ParentMessage } from '../src/execution/pool-protocol.js';
import { ExecutionEngine } from '../src/execution/engine.js';
import { NO_SETPRIV } from '../src/execution/parent-death.js';
import { SPIDER } from './helpers/cli.js';

/**
 * The pool sends work to an execution process that is still starting (pool.ts dispatch): the
 * process holds it until it is ready (exec-child.ts), so that nothing runs before its watchdog
 * thread exists, and the timer of a batch sent early starts only with the process's 'ready'.
 */
describe('work sent to an execution process before it is ready', () => {
  it('is held until the process says it is ready, then answered in order', async () => {
    // Without setpriv the process starts its watchdog thread first (an asynchronous import, during
    // which messages come in): the batch must wait for it. (With setpriv it is ready at once.)
    process.env[NO_SETPRIV] = '1';
    const { child } = forkExecProcess();
    delete process.env[NO_SETPRIV];
    const seen: ChildMessage[] = [];
    try {
      const done = new Promise<void>((resolve) =>
        child.on('message', (msg: ChildMessage) => {
          seen.push(msg);
          if (msg.type === 'idle') resolve();
        }),
      );
      const dbPath = join(SPIDER, 'database', 'concert_singer', 'concert_singer.sqlite');
      const batch: ParentMessage = {
        type: 'batch',
        jobs: [
          { jobId: 7, dbPath, sql: 'SELECT count(*) FROM singer' },
          { jobId: 8, dbPath, sql: 'SELECT nope FROM singer' },
        ],
        maxRows: 1000,
        maxBytes: 1 << 20,
        want: { rows: false, rowSet: true },
      };
      // Sent at once, as the pool does: the process is still loading its modules.
      child.send(batch);
      await done;
      expect(seen[0]!.type).toBe('ready');
      // Its own reading of its memory, for the pool's memory cap: tens of MB, not zero.
      const rss = (seen[0] as { rss?: number }).rss;
      expect(rss).toBeGreaterThan(10 << 20);
      const results = seen.flatMap((m) => (m.type === 'results' ? m.results : []));
      expect(results.map((r) => r.jobId)).toEqual([7, 8]);
      expect(results[0]!.result.status).toBe('ok');
      expect(results[1]!.result.error).toMatch(/no such column: nope/);
    } finally {
      child.kill('SIGKILL');
    }
  }, 300_000);

  it('keeps each query its whole timeout: a process start-up does not count against the first', async () => {
    // A timeout shorter than an execution process takes to start (~0.15-0.3 s): were the timer armed
    // when the batch left, the first query would time out before the process could run it.
    const engine = new ExecutionEngine({ dbRoot: join(SPIDER, 'database'), workers: 1, timeoutSec: 0.05 });
    try {
      // One query: several sent together would, on a timeout, go back to be run one by one and pass.
      const results = await engine.run([{ dbId: 'concert_singer', sql: 'SELECT count(*) FROM singer' }], undefined, undefined, { needRows: false });
      expect(results.map((r) => r.status)).toEqual(['ok']);
    } finally {
      await engine.close();
    }
  }, 300_000);
});
