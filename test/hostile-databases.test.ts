import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExecutionEngine } from '../src/execution/engine.js';
import { runCli, SPIDER } from './helpers/cli.js';

/**
 * A --db-root where each database directory holds something that is not a SQLite file, as a
 * careless operator or a hostile questions file could arrange. Each must be a clear error naming
 * the task and the path, before anything is hashed or executed (a FIFO or /dev/zero used to hang).
 */
describe('databases that are not SQLite files, and db_ids that leave --db-root', () => {
  let root: string;
  let engine: ExecutionEngine;
  const place = (dbId: string, make: (file: string) => void): void => {
    mkdirSync(join(root, dbId));
    make(join(root, dbId, `${dbId}.sqlite`));
  };

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'sqlboard-dbs-'));
    place('good', (f) => copyFileSync(join(SPIDER, 'database', 'flight_2', 'flight_2.sqlite'), f));
    place('fifo', (f) => execFileSync('mkfifo', [f]));
    place('zero', (f) => symlinkSync('/dev/zero', f));
    place('dir', (f) => mkdirSync(f));
    place('empty', (f) => writeFileSync(f, ''));
    place('text', (f) => writeFileSync(f, 'SELECT 1;\n'.repeat(20)));
    place('short', (f) => writeFileSync(f, 'SQLite'));
    // Outside --db-root: a real database that ../secret would reach.
    mkdirSync(join(root, '..', `${root.split('/').pop()}-secret`), { recursive: true });
    engine = new ExecutionEngine({ dbRoot: join(root), timeoutSec: 5, workers: 1 });
  });
  afterAll(async () => {
    await engine.close();
  });

  const cases: [string, RegExp][] = [
    ['fifo', /is a FIFO/],
    ['zero', /is a device/],
    ['dir', /is a directory/],
    ['empty', /is empty/],
    ['text', /is not a SQLite 3 database/],
    ['short', /is not a SQLite 3 database/],
    ['missing', /unknown database "missing".*does not exist/],
  ];
  for (const [dbId, problem] of cases) {
    it(`${dbId}: a user error naming the task and the path, without hashing or executing`, async () => {
      expect(() => engine.checkDatabases([{ id: '7', dbId }])).toThrow(problem);
      expect(() => engine.checkDatabases([{ id: '7', dbId }])).toThrow(`question 7: `);
      expect(() => engine.checkDatabases([{ id: '7', dbId }])).toThrow(join(root, dbId, `${dbId}.sqlite`));
      await expect(engine.run([{ dbId, sql: 'SELECT 1' }])).rejects.toThrow(problem);
      // Nothing hashed (reading a FIFO or /dev/zero would never end) and no query given a number to
      // execute: the engine's own bookkeeping, not a wall-time bound, which would depend on the load.
      const inside = engine as unknown as { shaByPath: Map<string, string>; queries: number };
      expect(inside.shaByPath.size).toBe(0);
      expect(inside.queries).toBe(0);
    });
  }

  it('a db_id must be a plain directory name: ../x, a/b, /abs, "" and ".." are refused', () => {
    for (const dbId of ['../secret', `../${root.split('/').pop()}-secret`, 'a/b', '/etc', '', '..', '.', 'a\\b', 'a\0b']) {
      expect(() => engine.checkDatabases([{ id: '3', dbId }]), dbId).toThrow(/question 3: db_id .* (plain directory name|is not a directory name)/);
      expect(engine.hasDatabase(dbId)).toBe(false);
    }
    expect(engine.hasDatabase('good')).toBe(true);
    expect(() => engine.checkDatabases([{ id: '1', dbId: 'good' }])).not.toThrow();
  });

  it('sqlboard score exits 2 with the message (it used to hang on a FIFO and exit 0 on an empty file)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sqlboard-dbs-cli-'));
    const questions = join(dir, 'q.json');
    const preds = join(dir, 'p.sql');
    writeFileSync(preds, 'SELECT 1\nSELECT 1\n');
    for (const [dbId, problem] of [
      ['empty', /question 1: database "empty": .*empty\.sqlite is empty/],
      ['fifo', /question 1: database "fifo": .*fifo\.sqlite is a FIFO/],
      ['../good', /question 1: db_id "\.\.\/good" must be a plain directory name/],
    ] as const) {
      writeFileSync(questions, JSON.stringify([
        { db_id: 'good', query: 'SELECT 1', question: 'q0' },
        { db_id: dbId, query: 'SELECT 1', question: 'q1' },
      ]));
      const r = await runCli(['score', '--questions', questions, '--db-root', root, '--system', `s=${preds}`, '--store', join(dir, 'store.db')]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(problem);
      expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
    }
  }, 300_000);
});
