import { copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { LlmCache } from '../src/llm/cache.js';
import { openRunStore } from '../src/store/run-store.js';
import { storeFailure } from '../src/store/store-failure.js';
import { ROOT, runCli } from './helpers/cli.js';

const SPIDER = join(ROOT, 'data', 'spider');
const work = mkdtempSync(join(tmpdir(), 'sqlboard-blame-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A store holding `n` LLM answers, as a judge run keeps them. */
function storeWithAnswers(file: string, n: number): void {
  const store = openRunStore(file);
  try {
    const cache = new LlmCache(store);
    for (let i = 0; i < n; i++) {
      const parts = { provider: 'openai', baseUrl: 'http://127.0.0.1', model: 'gpt-4o', promptHash: 'p', messages: [{ role: 'user' as const, content: `q${i}` }], sampling: { temperature: 0, maxOutputTokens: 10 } };
      cache.put(`key-${i}`, parts, { text: 'yes', usage: { inputTokens: 10, outputTokens: 1 }, costUsd: 0.01, latencyMs: 5, attempts: 1 });
    }
  } finally {
    store.close();
  }
}

/** SQLite's error for a damaged file, as better-sqlite3 throws it. */
function corrupt(): Error {
  return Object.assign(new Error('database disk image is malformed'), { name: 'SqliteError', code: 'SQLITE_CORRUPT' });
}

/**
 * Issue 30, item 8: a benchmark database cut to 5,000 bytes (its header intact), read for exact
 * match, was reported as "the run store … is damaged … move it away or delete it (it is a cache of
 * results)": the store was sound, and the default store also keeps the judge's paid answers.
 */
describe('a damaged file is named, and a store holding paid answers is never advised deleted', () => {
  it('sqlboard score: a truncated benchmark database read for exact match is named; the store is not blamed', async () => {
    const dbRoot = join(work, 'database');
    cpSync(join(SPIDER, 'database'), dbRoot, { recursive: true });
    const db = join(dbRoot, 'concert_singer', 'concert_singer.sqlite');
    writeFileSync(db, readFileSync(db).subarray(0, 5000));
    const store = join(work, 'score.db');
    storeWithAnswers(store, 2);
    const r = await runCli(['score', '--questions', join(SPIDER, 'dev.json'), '--db-root', dbRoot, '--tables', join(SPIDER, 'tables.json'), '--system', `c3=${join(SPIDER, 'predictions', 'c3', 'predicted_sql.txt')}`, '--store', store]);
    expect(r.code, r.stderr).toBe(ExitCode.UserError);
    expect(r.stderr).toContain(`${db}: cannot read this benchmark database (SQLITE_CORRUPT`);
    expect(r.stderr).not.toMatch(/run store .* is damaged|delete|internal error|\n\s+at /);
  });

  it('a damaged store holding LLM answers: "move it away", with their number, never "delete"', () => {
    const file = join(work, 'answers.db');
    storeWithAnswers(file, 3);
    const message = storeFailure(corrupt(), file)!.message;
    expect(message).toMatch(/^the run store .*answers\.db is damaged or not a sqlboard store \(SQLITE_CORRUPT: database disk image is malformed\): move it away rather than delete it \(it also holds 3 paid LLM answers; `sqlite3 .* \.recover` may save what is readable\), or give another --store$/);
  });

  it('a damaged store without LLM answers may be deleted: it holds only what a re-run computes again', () => {
    const file = join(work, 'cache-only.db');
    openRunStore(file).close();
    expect(storeFailure(corrupt(), file)!.message).toMatch(/move it away or delete it \(it holds no paid LLM answers: only cached results, which a re-run computes again\)/);
  });

  it('a SQLite error met far from the store (no file named) is not blamed on a store that checks sound', () => {
    const file = join(work, 'sound.db');
    storeWithAnswers(file, 1);
    // openRunStore noted it as the store last opened: the CLI's fallback for an unattributed SQLite error.
    const message = storeFailure(corrupt())!.message;
    expect(message).toMatch(/^a SQLite file is damaged \(SQLITE_CORRUPT: database disk image is malformed\); the run store .*sound\.db checks sound \(PRAGMA quick_check\), so it is another one/);
    // A store that is damaged indeed is still named.
    const broken = join(work, 'broken.db');
    copyFileSync(file, broken);
    writeFileSync(broken, Buffer.alloc(4096, 0x41));
    openRunStoreQuietly(broken);
    expect(storeFailure(corrupt())!.message).toMatch(/^the run store .*broken\.db is damaged or not a sqlboard store .*move it away rather than delete it \(it may hold paid LLM answers that could not be counted/);
  });
});

/** Opens a store that fails to open (so that it is the store last noted), ignoring the failure. */
function openRunStoreQuietly(file: string): void {
  try {
    openRunStore(file).close();
  } catch {
    // Damaged: expected.
  }
}
