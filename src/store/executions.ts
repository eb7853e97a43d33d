import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { decodeRows, encodeRows } from './cell-codec.js';
import type { ExecResult } from '../execution/types.js';
import type { RunStore } from './run-store.js';

/** Bumped whenever what an execution records changes, so older rows are not reused (2: integral REALs). */
const RESULT_FORMAT = 2;

/**
 * Executions kept in the run store, keyed by a content hash of (database file bytes, SQL,
 * row limit): a re-run with the same inputs executes nothing, whatever the paths are.
 * A timeout is kept with its limit, so a later run with a longer --timeout tries again; a result
 * that took longer than a later run's --timeout is not reused either, so that run times it out.
 */
export class ExecutionStore {
  private readonly get;
  private readonly put;
  private readonly getFile;
  private readonly putFile;

  constructor(store: RunStore) {
    store.db.exec(`
      CREATE TABLE IF NOT EXISTS executions (
        key TEXT PRIMARY KEY, db_sha256 TEXT NOT NULL, sql TEXT NOT NULL, status TEXT NOT NULL,
        columns TEXT NOT NULL, rows TEXT NOT NULL, error TEXT, ms REAL NOT NULL,
        timeout_ms INTEGER NOT NULL, max_rows INTEGER NOT NULL, created_at TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS db_files (
        path TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime_ms REAL NOT NULL, sha256 TEXT NOT NULL);`);
    this.get = store.db.prepare<[string], { status: string; columns: string; rows: string; error: string | null; ms: number; timeout_ms: number }>(
      'SELECT status, columns, rows, error, ms, timeout_ms FROM executions WHERE key = ?',
    );
    this.put = store.db.prepare(
      `INSERT OR REPLACE INTO executions (key, db_sha256, sql, status, columns, rows, error, ms, timeout_ms, max_rows, created_at)
       VALUES (@key, @db, @sql, @status, @columns, @rows, @error, @ms, @timeoutMs, @maxRows, @at)`,
    );
    this.getFile = store.db.prepare<[string], { size: number; mtime_ms: number; sha256: string }>(
      'SELECT size, mtime_ms, sha256 FROM db_files WHERE path = ?',
    );
    this.putFile = store.db.prepare('INSERT OR REPLACE INTO db_files (path, size, mtime_ms, sha256) VALUES (?, ?, ?, ?)');
  }

  /** sha256 of a database file, re-hashed only when its size or mtime changed. */
  async fileHash(path: string): Promise<string> {
    const abs = resolve(path);
    const st = statSync(abs);
    const known = this.getFile.get(abs);
    if (known && known.size === st.size && known.mtime_ms === st.mtimeMs) return known.sha256;
    const sha = await hashFile(abs);
    this.putFile.run(abs, st.size, st.mtimeMs, sha);
    return sha;
  }

  /** The limits are part of the key: a result too large under one budget may fit another. */
  static key(dbSha: string, sql: string, maxRows: number, maxBytes: number): string {
    return createHash('sha256').update(`${RESULT_FORMAT}\n${dbSha}\n${maxRows}\n${maxBytes}\n${sql}`).digest('hex');
  }

  lookup(key: string, timeoutMs: number): ExecResult | undefined {
    const row = this.get.get(key);
    if (!row) return undefined;
    if (row.status === 'timeout' ? row.timeout_ms < timeoutMs : row.ms > timeoutMs) return undefined;
    return {
      status: row.status as ExecResult['status'],
      ...decodeColumns(row.columns),
      rows: decodeRows(row.rows),
      ...(row.error !== null ? { error: row.error } : {}),
      ms: row.ms,
    };
  }

  save(key: string, dbSha: string, sql: string, result: ExecResult, timeoutMs: number, maxRows: number): void {
    let rows: string;
    try {
      rows = encodeRows(result.rows);
    } catch (e) {
      // The engine's byte budget keeps every result below what JSON and SQLite can hold; should
      // one still not fit, it is kept as the error it is rather than ending the run.
      if (!(e instanceof RangeError)) throw e;
      result = { status: 'error', columns: [], rows: [], error: `result too large to keep in the run store (${e.message})`, ms: result.ms };
      rows = '[]';
    }
    this.put.run({
      key,
      db: dbSha,
      sql,
      status: result.status,
      // Plain array of names, or {names, integralReals} when the result has integral REALs.
      columns: JSON.stringify(result.integralReals ? { names: result.columns, integralReals: result.integralReals } : result.columns),
      rows,
      error: result.error ?? null,
      ms: result.ms,
      timeoutMs,
      maxRows,
      at: new Date().toISOString(),
    });
  }
}

function hashFile(path: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const h = createHash('sha256');
    createReadStream(path)
      .on('data', (d) => h.update(d))
      .on('error', reject)
      .on('end', () => resolvePromise(h.digest('hex')));
  });
}

function decodeColumns(text: string): { columns: string[]; integralReals?: number[] } {
  const parsed = JSON.parse(text) as string[] | { names: string[]; integralReals: number[] };
  return Array.isArray(parsed) ? { columns: parsed } : { columns: parsed.names, integralReals: parsed.integralReals };
}
