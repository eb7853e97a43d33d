import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { ExecutionEngine } from '../src/execution/engine.js';
import { SPIDER } from './helpers/cli.js';

/**
 * An execution process keeps the shared lock on each database it has opened (exec-child.ts:
 * locking_mode EXCLUSIVE on a read-only connection) instead of taking and giving it back around
 * every query. Other readers must still get in; a writer is kept out until the run ends.
 */
describe('the lock an execution process holds on a database', () => {
  const root = mkdtempSync(join(tmpdir(), 'sqlboard-lock-'));
  /** A copy of Spider's concert_singer as the database `dbId` under `root`; its file. */
  const concertSinger = (dbId: string): string => {
    mkdirSync(join(root, dbId));
    const file = join(root, dbId, `${dbId}.sqlite`);
    copyFileSync(join(SPIDER, 'database', 'concert_singer', 'concert_singer.sqlite'), file);
    return file;
  };
  const file = concertSinger('concert_singer');
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const insert = (): void => {
    const w = new Database(file, { fileMustExist: true, timeout: 0 });
    try {
      w.prepare("INSERT INTO stadium (Stadium_ID, Location, Name, Capacity, Highest, Lowest, Average) VALUES (99, 'x', 'y', 1, 1, 1, 1)").run();
    } finally {
      w.close();
    }
  };

  it('lets other readers and another run read, keeps a writer out until its processes stop', async () => {
    const a = new ExecutionEngine({ dbRoot: root, workers: 1, timeoutSec: 10 });
    const b = new ExecutionEngine({ dbRoot: root, workers: 1, timeoutSec: 10 });
    try {
      const q = [{ dbId: 'concert_singer', sql: 'SELECT count(*) FROM stadium' }];
      expect((await a.run(q))[0]!.rows).toEqual([[9]]);
      // What a prediction that asks sees (the README says so).
      expect((await a.run([{ dbId: 'concert_singer', sql: 'SELECT * FROM pragma_locking_mode' }]))[0]!.rows).toEqual([['exclusive']]);
      // A second run, and a plain reader, while the first run's process holds its lock.
      expect((await b.run([{ dbId: 'concert_singer', sql: 'SELECT count(*) FROM singer' }]))[0]!.rows).toEqual([[6]]);
      const r = new Database(file, { readonly: true, fileMustExist: true });
      expect(r.prepare('SELECT count(*) AS n FROM concert').get()).toEqual({ n: 6 });
      r.close();
      // Without the held lock a writer would get in between two queries.
      expect(insert).toThrow(/database is locked/);
    } finally {
      await a.close();
      await b.close();
    }
    insert();
    const r = new Database(file, { readonly: true, fileMustExist: true });
    expect(r.prepare('SELECT count(*) AS n FROM stadium').get()).toEqual({ n: 10 });
    r.close();
  });

  it('is not taken on a WAL database, which a read-only connection could then not read at all', async () => {
    const w = new Database(concertSinger('wal_singer'));
    expect(w.pragma('journal_mode = WAL', { simple: true })).toBe('wal');
    w.close();
    const a = new ExecutionEngine({ dbRoot: root, workers: 1, timeoutSec: 10 });
    const b = new ExecutionEngine({ dbRoot: root, workers: 1, timeoutSec: 10 });
    try {
      // Held in exclusive mode, every query here was "disk I/O error".
      const [first] = await a.run([{ dbId: 'wal_singer', sql: 'SELECT count(*) FROM singer' }]);
      expect(first!.error).toBeUndefined();
      expect(first!.rows).toEqual([[6]]);
      expect((await b.run([{ dbId: 'wal_singer', sql: 'SELECT count(*) FROM stadium' }]))[0]!.rows).toEqual([[9]]);
      expect((await a.run([{ dbId: 'wal_singer', sql: 'SELECT * FROM pragma_locking_mode' }]))[0]!.rows).toEqual([['normal']]);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
