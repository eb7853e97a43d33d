import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { EmItem } from '../src/execution/em-run.js';
import { EM_FORMAT, EmStore } from '../src/execution/em-store.js';
import { HARDNESS_FORMAT, HardnessStore } from '../src/execution/hardness-store.js';
import { ExecutionStore, RESULT_FORMAT } from '../src/execution/result-store.js';
import { KeyedTexts } from '../src/store/keyed-texts.js';
import { openRunStore, type RunStore } from '../src/store/run-store.js';

/** Rows kept under an older format are found by no later version: the first newer one to open the store deletes them. */
describe('rows of older formats in the run store', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  const fresh = (): RunStore => {
    dirs.push(mkdtempSync(join(tmpdir(), 'sqlboard-older-')));
    return openRunStore(join(dirs.at(-1)!, 'run.db'));
  };
  const reopen = (s: RunStore): RunStore => {
    s.close();
    return openRunStore(s.file);
  };
  const count = (s: RunStore, table: string): number => (s.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  const recorded = (s: RunStore, table: string): number | undefined =>
    (s.db.prepare('SELECT format FROM store_formats WHERE tbl = ?').get(table) as { format: number } | undefined)?.format;
  /** An executions row as a version before the record wrote it, under `key`. */
  const oldRow = (s: RunStore, key: string): void =>
    void s.db
      .prepare(
        "INSERT INTO executions (key, db_sha256, sql, status, columns, rows, error, ms, timeout_ms, max_rows, created_at) VALUES (?, 'sha', 'SELECT 1', 'ok', '[\"1\"]', '[[1]]', NULL, 1, 30000, 100, '2026-01-01')",
      )
      .run(key);
  const current = (n: number): string => ExecutionStore.key('sha', `SELECT ${n}`, 100, 1000);
  /** One exact-match item kept (what it holds does not matter here). */
  const keepOneItem = (s: RunStore): void => {
    const em = new EmStore(s);
    em.save(new Map([[em.key('ctx', 'SELECT 1', 'SELECT 1'), { em: 1, partial: {}, predParsed: true } as unknown as EmItem]]));
  };

  it('a store from before the record loses its hex-keyed executions, keeps the others while format 8 is current, and records the format', () => {
    let s = fresh();
    new ExecutionStore(s);
    s.db.exec('DROP TABLE store_formats');
    oldRow(s, 'a'.repeat(64));
    oldRow(s, 'b'.repeat(64));
    oldRow(s, current(1));
    s = reopen(s);
    try {
      new ExecutionStore(s);
      // Such a store held format 8 (result-store.ts UNRECORDED_FORMAT): once RESULT_FORMAT is past it, nothing stays.
      expect((s.db.prepare('SELECT key FROM executions').all() as { key: string }[]).map((r) => r.key)).toEqual((RESULT_FORMAT as number) === 8 ? [current(1)] : []);
      expect(recorded(s, 'executions')).toBe(RESULT_FORMAT);
    } finally {
      s.close();
    }
  });

  it('a store recorded under an older format loses every row of that table, once; a newer one keeps its rows', () => {
    let s = fresh();
    new ExecutionStore(s);
    oldRow(s, current(1));
    oldRow(s, current(2));
    s.db.prepare('UPDATE store_formats SET format = ? WHERE tbl = ?').run(RESULT_FORMAT - 1, 'executions');
    s = reopen(s);
    try {
      new ExecutionStore(s);
      expect(count(s, 'executions')).toBe(0);
      expect(recorded(s, 'executions')).toBe(RESULT_FORMAT);
      // Recorded now: what this version keeps stays.
      oldRow(s, current(3));
      new ExecutionStore(s);
      expect(count(s, 'executions')).toBe(1);
      // A newer version's store: its rows are not this version's to delete.
      s.db.prepare('UPDATE store_formats SET format = ? WHERE tbl = ?').run(RESULT_FORMAT + 1, 'executions');
      new ExecutionStore(s);
      expect(count(s, 'executions')).toBe(1);
      expect(recorded(s, 'executions')).toBe(RESULT_FORMAT + 1);
    } finally {
      s.close();
    }
  });

  it('a store from before the record, opened by a version whose format is past the one it held, loses every row of it', () => {
    let s = fresh();
    keepOneItem(s);
    s.db.exec('DROP TABLE store_formats');
    s = reopen(s);
    try {
      // As a version with EM_FORMAT one past today's would open it.
      new KeyedTexts(s, 'exact_matches', 'item', EM_FORMAT + 1);
      expect(count(s, 'exact_matches')).toBe(0);
      expect(recorded(s, 'exact_matches')).toBe(EM_FORMAT + 1);
    } finally {
      s.close();
    }
  });

  it('the record never goes down: an older version opening a newer store leaves it and its rows as they are', () => {
    const s = fresh();
    try {
      new KeyedTexts(s, 'spider_hardness', 'level', 5);
      new HardnessStore(s).save(new Map([['SELECT 1', 'easy']]));
      new KeyedTexts(s, 'spider_hardness', 'level', 4);
      expect([recorded(s, 'spider_hardness'), count(s, 'spider_hardness')]).toEqual([5, 1]);
    } finally {
      s.close();
    }
  });

  it('exact-match items and hardness levels: older ones dropped, those of a store from before the record kept (same key scheme)', () => {
    let s = fresh();
    keepOneItem(s);
    new HardnessStore(s).save(new Map([['SELECT 1', 'easy']]));
    s.db.exec('DROP TABLE store_formats');
    s = reopen(s);
    new EmStore(s);
    new HardnessStore(s);
    // Such a store held format 1 of each (keyed-texts.ts): kept while 1 is current, dropped once past it.
    expect([count(s, 'exact_matches'), count(s, 'spider_hardness')]).toEqual([(EM_FORMAT as number) === 1 ? 1 : 0, (HARDNESS_FORMAT as number) === 1 ? 1 : 0]);
    keepOneItem(s);
    new HardnessStore(s).save(new Map([['SELECT 1', 'easy']]));
    expect(new HardnessStore(s).lookup(['SELECT 1'])).toEqual(new Map([['SELECT 1', 'easy']]));
    s.db.prepare('UPDATE store_formats SET format = ? WHERE tbl = ?').run(EM_FORMAT - 1, 'exact_matches');
    s = reopen(s);
    try {
      new EmStore(s);
      new HardnessStore(s);
      expect([count(s, 'exact_matches'), count(s, 'spider_hardness')]).toEqual([0, 1]);
    } finally {
      s.close();
    }
  });
});
