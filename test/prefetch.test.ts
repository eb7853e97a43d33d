import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExecutionEngine } from '../src/execution/engine.js';
import { UserError } from '../src/errors.js';
import { openRunStore, type RunStore } from '../src/store/run-store.js';
import type { ExecRequest, ExecResult } from '../src/execution/types.js';
import { SPIDER } from './helpers/cli.js';

const DB_ROOT = join(SPIDER, 'database');
const freshStore = (): RunStore => openRunStore(join(mkdtempSync(join(tmpdir(), 'sqlboard-prefetch-')), 'store.db'));
/** Distinct queries with distinct answers, some repeated, and one that fails. */
const golds: ExecRequest[] = Array.from({ length: 300 }, (_, i) => ({ dbId: 'flight_2', sql: `SELECT ${i}, count(*) FROM airlines WHERE uid > ${i % 7}` }));
const preds: ExecRequest[] = [
  ...golds.slice(0, 150),
  ...Array.from({ length: 150 }, (_, i) => ({ dbId: 'flight_2', sql: `SELECT ${i + 1000}, Airline FROM airlines LIMIT ${i % 5}` })),
  { dbId: 'flight_2', sql: 'SELECT nope FROM airlines' },
];
const all = [...golds, ...preds];

/** What a result says, without its own timing. */
const outcome = (r: ExecResult): unknown => ({ status: r.status, error: r.error, columns: r.columns, rowSet: r.rowSet, rows: r.rows });
/** The engine's counts, without the queries' own timing. */
const counts = ({ requested, distinct, executed, reused }: ExecutionEngine['stats']): object => ({ requested, distinct, executed, reused });

async function withEngine<T>(store: RunStore, f: (e: ExecutionEngine) => Promise<T>): Promise<T> {
  const engine = new ExecutionEngine({ dbRoot: DB_ROOT, workers: 2, store });
  try {
    return await f(engine);
  } finally {
    await engine.close();
  }
}

/** Waits until the engine has executed `n` queries (prefetched ones arrive on their own). */
async function executedAtLeast(engine: ExecutionEngine, n: number): Promise<void> {
  for (let i = 0; i < 6000 && engine.stats.executed < n; i++) await new Promise((r) => setTimeout(r, 10));
  expect(engine.stats.executed).toBeGreaterThanOrEqual(n);
}

describe('prefetch: executions started before the run that uses them', () => {
  it('gives run() the same results and counts as a run alone, executing each distinct query once', async () => {
    const plainStore = freshStore();
    const plain = await withEngine(plainStore, async (e) => ({ results: await e.run(all, undefined, undefined, { needRows: false }), stats: counts(e.stats) }));
    plainStore.close();
    expect(plain.stats).toEqual({ requested: 601, distinct: 451, executed: 451, reused: 0 });

    // run() called while the prefetched queries still run, and after they have all arrived.
    for (const wait of [false, true]) {
      const store = freshStore();
      const got = await withEngine(store, async (e) => {
        e.prefetch(golds, false);
        e.prefetch(preds, false);
        // Repeats of prefetched queries start nothing more.
        e.prefetch(golds.slice(0, 10), false);
        if (wait) await executedAtLeast(e, 451);
        const seen = new Map<number, ExecResult>();
        const results = await e.run(all, undefined, (i, r) => seen.set(i, r), { needRows: false });
        expect([...seen.keys()].sort((a, b) => a - b)).toEqual(all.map((_r, i) => i));
        return { results, stats: counts(e.stats) };
      });
      expect(got.stats, `waited: ${wait}`).toEqual(plain.stats);
      expect(got.results.map(outcome)).toEqual(plain.results.map(outcome));
      // Everything prefetched was kept: a re-run executes nothing.
      const rerun = await withEngine(store, async (e) => {
        e.prefetch(golds, false);
        await e.run(all, undefined, undefined, { needRows: false });
        return { ...e.stats };
      });
      expect(rerun).toMatchObject({ distinct: 451, executed: 0, reused: 451 });
      store.close();
    }
  }, 300_000);

  it('is not taken by a run that needs what it did not fetch (the rows)', async () => {
    const store = freshStore();
    const results = await withEngine(store, async (e) => {
      e.prefetch(golds, false);
      return e.run(golds, undefined, undefined, { needRows: true });
    });
    store.close();
    expect(results.every((r, i) => r.status === 'ok' && r.rows.length === 1 && r.rows[0]![0] === i)).toBe(true);
  }, 300_000);

  it('leaves unusable databases to run(), which reports them', async () => {
    const store = freshStore();
    await withEngine(store, async (e) => {
      expect(() => e.prefetch([{ dbId: 'no_such_db', sql: 'SELECT 1' }, { dbId: '../flight_2', sql: 'SELECT 1' }, golds[0]!], false)).not.toThrow();
      await executedAtLeast(e, 1);
      await expect(e.run([{ dbId: 'no_such_db', sql: 'SELECT 1' }])).rejects.toThrow(/unknown database "no_such_db"/);
    });
    store.close();
  }, 300_000);

  it('a full disk while prefetched results are kept makes the run fail with the store error', async () => {
    const store = freshStore();
    const many = Array.from({ length: 4000 }, (_, i) => ({ dbId: 'flight_2', sql: `SELECT ${i}, Airline FROM airlines` }));
    const pages = Number(store.db.pragma('page_count', { simple: true }));
    store.db.pragma(`max_page_count = ${pages + 40}`);
    let error: unknown;
    await withEngine(store, async (e) => {
      e.prefetch(many, false);
      try {
        await e.run(many, undefined, undefined, { needRows: false });
      } catch (err) {
        error = err;
      }
    });
    store.close();
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toMatch(/^the disk holding the run store .* is full \(SQLITE_FULL/);
  }, 300_000);
});
