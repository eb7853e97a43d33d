import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ExecutionEngine } from '../src/execution/engine.js';
import { SPIDER } from './helpers/cli.js';

/**
 * PRAGMAs that return a row used to pass the read-only guard, and SQLite applies most of them while
 * compiling, so the setting stayed on the execution process's cached connection for every later
 * query of every system. One process (workers: 1) so that later queries meet the same connection.
 */
describe('PRAGMA allow-list', () => {
  const engine = new ExecutionEngine({ dbRoot: join(SPIDER, 'database'), workers: 1, timeoutSec: 10 });
  afterAll(() => engine.close());
  const run = async (sqls: string[]) => engine.run(sqls.map((sql) => ({ dbId: 'flight_2', sql })));
  const state = ['SELECT * FROM pragma_busy_timeout', 'SELECT * FROM pragma_cache_size', 'SELECT * FROM pragma_locking_mode', 'SELECT * FROM pragma_query_only'];

  it('refuses every PRAGMA that sets state, and the connection keeps its settings', async () => {
    const before = (await run(state)).map((r) => r.rows);
    const attempts = [
      'PRAGMA busy_timeout = 4321',
      'PRAGMA cache_size = 77',
      'PRAGMA main.locking_mode = EXCLUSIVE',
      'PRAGMA locking_mode = EXCLUSIVE',
      'pragma "cache_size"(12)',
      'PRAGMA mmap_size = 268435456',
      'PRAGMA threads = 4',
      'PRAGMA soft_heap_limit = 1000',
      'PRAGMA hard_heap_limit = 1000',
      'PRAGMA temp_store = MEMORY',
      'PRAGMA query_only = 0',
      'PRAGMA journal_mode = WAL',
      'PRAGMA user_version = 7',
      'PRAGMA busy_timeout',
      'EXPLAIN PRAGMA cache_size = 55',
      'EXPLAIN QUERY PLAN PRAGMA busy_timeout = 9',
      '  /* hidden */ PRAGMA cache_size = 66',
      ';PRAGMA cache_size = 88',
    ];
    const results = await run(attempts);
    results.forEach((r, i) => {
      expect(r.status, attempts[i]).toBe('error');
      expect(r.error, attempts[i]).toMatch(/^refused: PRAGMA \w+( with a value)? may change the connection; only reading PRAGMAs/);
    });
    expect((await run(state)).map((r) => r.rows)).toEqual(before);
  });

  it('lets the PRAGMAs that read run, bare or with a table name, and their table-valued forms', async () => {
    const reads = [
      'PRAGMA table_info(airlines)',
      'PRAGMA main.table_info("airlines")',
      'PRAGMA index_list(flights)',
      'PRAGMA foreign_key_list(flights)',
      'PRAGMA table_xinfo(airports)',
      'PRAGMA database_list',
      'PRAGMA user_version',
      'PRAGMA schema_version',
      'PRAGMA page_count',
      'PRAGMA integrity_check',
      "SELECT name FROM pragma_table_info('airlines')",
    ];
    const results = await run(reads);
    results.forEach((r, i) => expect(r.status, `${reads[i]}: ${r.error}`).toBe('ok'));
    expect(results[0]!.rows.map((row) => row[1])).toEqual(['uid', 'Airline', 'Abbreviation', 'Country']);
    expect(results[9]!.rows).toEqual([['ok']]);
  });
});
