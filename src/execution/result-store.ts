import { createHash, hash } from 'node:crypto';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { decodeRows } from './cell-codec.js';
import type { WireResult } from './pool-protocol.js';
import { rowSetDigest } from './row-set.js';
import { previewFromStored, type ResultPreview } from './result-preview.js';
import type { ExecResult } from './types.js';
import type { RunStore } from '../store/run-store.js';
import { dropOlderFormats } from '../store/older-formats.js';
import { guardStore } from '../store/store-failure.js';

/**
 * Bumped whenever what an execution records changes, so older rows are not reused (2: integral
 * REALs; 3: ±Infinity and -0 cells, which plain JSON turned into null and 0; 4: TEXT that is not
 * valid UTF-8 kept as its errors="ignore" decoding and marked, no longer with U+FFFD; 5: a result
 * may be kept without its rows, ROWS_NOT_KEPT, which an older reader would have taken for JSON; 6: the
 * row-set digest hashes the row length and the joined keys; 7: it hashes the distinct rows as
 * canonical JSON in a sampled order instead, row-set.ts; 8: bytes in that JSON as base64, integers
 * from 2^64 that a double equals as its digits; 9: double-quoted names resolved by SQLite itself,
 * reference by reference, dqs.ts, where a rewriter had made every occurrence of a name a string once
 * one of them failed to resolve; 10: every result is kept with the memory cap it ran under,
 * memory_cap_mb, and a memory limit's error with memory_limit_mb: format 9 kept neither, and reused
 * a memory limit's error under any cap).
 */
export const RESULT_FORMAT = 10;
/**
 * What a store written before older-formats.ts's record holds: RESULT_FORMAT 8, except for keys of
 * another length than KEY_CHARS (the 64 hex characters of before), which no lookup finds.
 */
const UNRECORDED_FORMAT = 8;
/**
 * The `rows` of a result kept as its row-set digest only: a run that compares row sets (the
 * `bird` comparison) neither copies rows out of the execution processes nor writes them here.
 * A later caller that needs the rows finds no result and executes the query again (then kept whole).
 */
const ROWS_NOT_KEPT = '';
/**
 * Saves wait in memory for one transaction: a commit per row cost more than the queries. A run's
 * first SAVE_FIRST results commit every SAVE_BATCH_FIRST (they are soon kept and visible), the rest
 * every SAVE_BATCH: keys are hashes, so every commit rewrites most of the key index's pages, and
 * 1,000 rows a commit wrote 8,324 Spider results in about half the time 200 took. Whatever the
 * count, what has waited SAVE_WAIT_MS is written. A SIGKILL loses what waits.
 */
const SAVE_BATCH_FIRST = 200;
const SAVE_FIRST = 1000;
const SAVE_BATCH = 1000;
const SAVE_WAIT_MS = 200;
/** Characters of an execution's key (ExecutionStore.key). */
const KEY_CHARS = 22;
/** Keys per lookupMany statement. */
const LOOKUP_CHUNK = 2000;
/** SQLite's largest string or blob (SQLITE_MAX_LENGTH), less room for the rest of the row. */
const MAX_VALUE_BYTES = 999_000_000;
const BIG_RESULT_CHARS = 1 << 24;

/**
 * Executions kept in the run store, keyed by a content hash of (database file bytes, SQL,
 * row limit): a re-run with the same inputs executes nothing, whatever the paths are.
 * A timeout is kept with its limit, so a later run with a longer --timeout tries again; a result
 * that took longer than a later run's --timeout is not reused either, so that run times it out.
 * The memory cap works the same way: a memory limit's error is kept with its cap (memory_limit_mb),
 * so a later run with a higher --max-memory-mb tries again, and any other result with the cap it
 * ran under (memory_cap_mb), so a later run with a lower one runs it again (it might not fit).
 * (--max-rows and --max-result-bytes are part of the key.)
 */
export class ExecutionStore {
  private readonly getMany;
  private readonly getManyLean;
  private readonly getHead;
  private readonly put;
  private readonly putMany;
  private pending: PendingRow[] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  private readonly getFile;
  private readonly any;
  private readonly putFile;
  private readonly file: string;
  /** Results this store was handed (save calls), for the batch size. */
  private saved = 0;
  private stamp = '';
  private stampMs = -1;
  /** A failure of a flush that a timer started, for the next save or flush to throw. */
  private failure: unknown;
  /**
   * When the store held no execution as this opened it: the keys saved since, the only ones a lookup
   * can find (a cold run looks up none of its thousands of queries). Another run writing to the same
   * store at the same time is not seen: its results are executed again, and found by a re-run.
   */
  private readonly savedHere: Set<string> | undefined;

  /**
   * @param memoryCapMb the memory cap of the runs that look results up and save them here
   *   (--max-memory-mb; Infinity where it is not enforced): a memory limit's error kept under a
   *   looser cap, or another result kept under a tighter one, is not reused.
   */
  constructor(
    store: RunStore,
    private readonly memoryCapMb = Number.POSITIVE_INFINITY,
  ) {
    this.file = store.file;
    guardStore(store.file, () =>
      store.db.exec(`
      CREATE TABLE IF NOT EXISTS executions (
        key TEXT PRIMARY KEY, db_sha256 TEXT NOT NULL, sql TEXT NOT NULL, status TEXT NOT NULL,
        columns TEXT NOT NULL, rows TEXT NOT NULL, error TEXT, ms REAL NOT NULL,
        timeout_ms INTEGER NOT NULL, max_rows INTEGER NOT NULL, created_at TEXT NOT NULL, row_set TEXT,
        memory_limit_mb REAL, memory_cap_mb REAL);
      CREATE TABLE IF NOT EXISTS db_files (
        path TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime_ms REAL NOT NULL, sha256 TEXT NOT NULL);`),
    );
    // Stores written before row sets were kept get the column (NULL: computed from the rows).
    const cols = store.db.prepare<[], { name: string }>('PRAGMA table_info(executions)').all();
    if (!cols.some((c) => c.name === 'row_set')) guardStore(store.file, () => store.db.exec('ALTER TABLE executions ADD COLUMN row_set TEXT'));
    // Stores written before memory caps were kept get the columns (what format 8 kept is dropped below).
    for (const col of ['memory_limit_mb', 'memory_cap_mb']) {
      if (!cols.some((c) => c.name === col)) guardStore(store.file, () => store.db.exec(`ALTER TABLE executions ADD COLUMN ${col} REAL`));
    }
    dropOlderFormats(store, 'executions', RESULT_FORMAT, { format: UNRECORDED_FORMAT, unreachable: `length(key) <> ${KEY_CHARS}` });
    // Looked up by a JSON array of keys; without the rows, for callers that compare row sets
    // only (a re-run decodes nothing).
    // Rows come back as arrays (raw): a re-run reads thousands, and building an object per row cost more than the lookup.
    this.getMany = store.db
      .prepare<[string], StoredRow>('SELECT key, status, columns, rows, error, ms, timeout_ms, row_set, memory_limit_mb, memory_cap_mb FROM executions WHERE key IN (SELECT value FROM json_each(?))')
      .raw(true);
    this.getManyLean = store.db
      .prepare<[string], StoredRow>(
        "SELECT key, status, columns, CASE WHEN row_set IS NULL THEN rows ELSE '[]' END AS rows, error, ms, timeout_ms, row_set, memory_limit_mb, memory_cap_mb FROM executions WHERE key IN (SELECT value FROM json_each(?))",
      )
      .raw(true);
    // A report's preview: the first rows and the count, cut out by SQLite so a huge result is never decoded here.
    // A result kept without its rows has no preview.
    this.getHead = store.db.prepare<[number, string], { status: string; columns: string; head: string; total: number; error: string | null }>(
      `SELECT status, columns, error, json_array_length(rows) AS total,
         (SELECT json_group_array(json(value)) FROM (SELECT value FROM json_each(e.rows) LIMIT ?)) AS head
       FROM executions e WHERE key = ? AND rows <> ''`,
    );
    // Positional parameters, bound from one array per row: named ones cost an object and a lookup per field.
    this.put = store.db.prepare<PendingRow>(
      `INSERT OR REPLACE INTO executions (key, db_sha256, sql, status, columns, rows, error, ms, timeout_ms, max_rows, created_at, row_set, memory_limit_mb, memory_cap_mb)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.putMany = store.db.transaction((rows: PendingRow[]) => {
      for (const r of rows) this.put.run(...r);
    });
    this.any = store.db.prepare('SELECT 1 FROM executions LIMIT 1');
    this.getFile = store.db.prepare<[string], { size: number; mtime_ms: number; sha256: string }>(
      'SELECT size, mtime_ms, sha256 FROM db_files WHERE path = ?',
    );
    this.putFile = store.db.prepare('INSERT OR REPLACE INTO db_files (path, size, mtime_ms, sha256) VALUES (?, ?, ?, ?)');
    if (this.isEmpty()) this.savedHere = new Set();
  }

  /**
   * sha256 of a database file, re-hashed only when its size or mtime changed. Synchronous (read in
   * chunks, so a big database costs no memory): the engine hashes before it hands out any query, and
   * an asynchronous read only let other work in before the execution processes got theirs.
   */
  fileHash(path: string): string {
    const abs = resolve(path);
    const st = statSync(abs);
    const known = guardStore(this.file, () => this.getFile.get(abs));
    if (known && known.size === st.size && known.mtime_ms === st.mtimeMs) return known.sha256;
    const sha = hashFile(abs);
    guardStore(this.file, () => this.putFile.run(abs, st.size, st.mtimeMs, sha));
    return sha;
  }

  /** Whether no execution is kept yet (a first run: nothing to reuse). */
  isEmpty(): boolean {
    return guardStore(this.file, () => this.any.get()) === undefined;
  }

  /**
   * The limits are part of the key: a result too large under one budget may fit another. The key is
   * the sha256's first KEY_CHARS base64url characters (132 bits: no collision is within reach, by
   * chance or by a crafted prediction): its index, into which every save inserts at a random place,
   * is a third of what 64 hex characters made, and replaying a cold 23-system run's 13,353 saves
   * took 91 ms of CPU instead of 108 ms (medians of 10), its closing checkpoint 2 ms instead of 5.
   * Stores keyed in hex before are not found by these keys: their queries run once more.
   */
  static key(dbSha: string, sql: string, maxRows: number, maxBytes: number, variant = ''): string {
    // One-shot hash(): a re-run keys thousands of queries, and a Hash object per key cost twice as much.
    // `variant`: what else decides the result (--sqlite-compat); none keeps the keys of before.
    const text = `${RESULT_FORMAT}\n${dbSha}\n${maxRows}\n${maxBytes}\n${sql}`;
    return hash('sha256', variant === '' ? text : `${variant}\n${text}`, 'base64url').slice(0, KEY_CHARS);
  }

  /**
   * Kept results, by key (those not found are absent). With `withRows` false their rows are left
   * out and their rowSet is set instead; with `withRows`, a result kept without its rows is not
   * found. One statement per LOOKUP_CHUNK keys: a re-run finding thousands of results does not
   * cross into SQLite once for each.
   */
  lookupMany(keys: readonly string[], timeoutMs: number, withRows = true): Map<string, ExecResult> {
    const out = new Map<string, ExecResult>();
    const stmt = withRows ? this.getMany : this.getManyLean;
    const saved = this.savedHere;
    // In key order, SQLite walks its key index forward instead of jumping around it.
    const sorted = (saved ? keys.filter((k) => saved.has(k)) : [...keys]).sort();
    for (let at = 0; at < sorted.length; at += LOOKUP_CHUNK) {
      const chunk = JSON.stringify(sorted.slice(at, at + LOOKUP_CHUNK));
      for (const row of guardStore(this.file, () => stmt.all(chunk))) {
        const r = this.result(row, timeoutMs, withRows);
        if (r) out.set(row[0], r);
      }
    }
    return out;
  }

  private result([, status, columns, rowsJson, error, ms, timeout, rowSet, memoryLimitMb, memoryCapMb]: StoredRow, timeoutMs: number, withRows: boolean): ExecResult | undefined {
    if (status === 'timeout' ? timeout < timeoutMs : ms > timeoutMs) return undefined;
    // A memory limit's error holds only under the same cap or a tighter one, any other result only
    // under the same cap or a looser one (NULL: it ran where no cap was enforced).
    if (memoryLimitMb !== null ? memoryLimitMb < this.memoryCapMb : (memoryCapMb ?? Number.POSITIVE_INFINITY) > this.memoryCapMb) return undefined;
    if (withRows && status === 'ok' && rowsJson === ROWS_NOT_KEPT) return undefined;
    const rows = status === 'ok' && (withRows || rowSet === null) ? decodeRows(rowsJson) : [];
    // Built field by field (a re-run builds thousands): the same fields, in the same order, as spreads gave.
    const cols = decodeColumns(columns);
    const r = { status: status as ExecResult['status'] } as ExecResult;
    r.columns = cols.columns;
    if (cols.integralReals) r.integralReals = cols.integralReals;
    if (cols.undecodable !== undefined) r.undecodable = cols.undecodable;
    r.rows = withRows ? rows : [];
    if (status === 'ok') r.rowSet = rowSet ?? rowSetDigest(rows);
    if (error !== null) r.error = error;
    if (memoryLimitMb !== null) r.memoryLimitMb = memoryLimitMb;
    r.ms = ms;
    return r;
  }

  /** The first `rows` rows of a kept result, for a report (no timeout check: it only shows what was run). */
  preview(key: string, rows: number): ResultPreview | undefined {
    const row = guardStore(this.file, () => this.getHead.get(rows, key));
    if (!row) return undefined;
    const status = row.status as ExecResult['status'];
    return previewFromStored(status, decodeColumns(row.columns).columns, status === 'ok' ? row.head : '[]', status === 'ok' ? row.total : 0, row.error ?? undefined);
  }

  /**
   * Keeps a result as the execution process sent it (rows already encoded, or only their digest
   * when no caller wanted them). Saves are written in
   * batches, one transaction each; flush() writes the rest. A killed run loses at most one batch.
   */
  save(key: string, dbSha: string, sql: string, result: WireResult, timeoutMs: number, maxRows: number): void {
    this.throwFailure();
    const rowsJson = result.rowsJson ?? (result.status === 'ok' ? ROWS_NOT_KEPT : '[]');
    // Only a budget above the store-safe ceiling lets a result this big through: it is not kept.
    if (rowsJson.length > MAX_VALUE_BYTES / 3 && Buffer.byteLength(rowsJson) > MAX_VALUE_BYTES) return;
    this.savedHere?.add(key);
    this.pending.push([
      key,
      dbSha,
      sql,
      result.status,
      // Plain array of names, or {names, integralReals?, undecodable?} when the result has either.
      JSON.stringify(
        result.integralReals || result.undecodable !== undefined
          ? {
              names: result.columns,
              ...(result.integralReals ? { integralReals: result.integralReals } : {}),
              ...(result.undecodable !== undefined ? { undecodable: result.undecodable } : {}),
            }
          : result.columns,
      ),
      rowsJson,
      result.error ?? null,
      result.ms,
      timeoutMs,
      maxRows,
      this.now(),
      result.rowSet ?? null,
      result.memoryLimitMb ?? null,
      Number.isFinite(this.memoryCapMb) ? this.memoryCapMb : null,
    ]);
    // A big result is written at once rather than waiting in memory for its batch.
    this.saved++;
    const batch = this.saved <= SAVE_FIRST ? SAVE_BATCH_FIRST : SAVE_BATCH;
    if (this.pending.length >= batch || rowsJson.length > BIG_RESULT_CHARS) this.flush();
    // While a slow query holds up the next batch, what has arrived is written within SAVE_WAIT_MS.
    else this.flushTimer ??= setTimeout(() => this.flushLater(), SAVE_WAIT_MS).unref();
  }

  /** The time as an ISO string, made again only when the millisecond changed (thousands of saves a second). */
  private now(): string {
    const ms = Date.now();
    if (ms !== this.stampMs) {
      this.stampMs = ms;
      this.stamp = new Date(ms).toISOString();
    }
    return this.stamp;
  }

  flush(): void {
    this.throwFailure();
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.pending.length === 0) return;
    const rows = this.pending;
    this.pending = [];
    guardStore(this.file, () => this.putMany(rows));
  }

  /** A timer's flush must not throw (nothing would catch it): its failure waits for the next call. */
  private flushLater(): void {
    try {
      this.flush();
    } catch (e) {
      this.failure = e;
    }
  }

  private throwFailure(): void {
    if (this.failure !== undefined) throw this.failure;
  }
}

/** A lookup's row, as SQLite returns it raw: key, status, columns, rows, error, ms, timeout_ms, row_set, memory_limit_mb, memory_cap_mb. */
type StoredRow = [
  key: string,
  status: string,
  columns: string,
  rows: string,
  error: string | null,
  ms: number,
  timeoutMs: number,
  rowSet: string | null,
  memoryLimitMb: number | null,
  memoryCapMb: number | null,
];

/** An executions row waiting for its transaction, in the INSERT's column order. */
type PendingRow = [
  key: string,
  dbSha: string,
  sql: string,
  status: string,
  columns: string,
  rows: string,
  error: string | null,
  ms: number,
  timeoutMs: number,
  maxRows: number,
  createdAt: string,
  rowSet: string | null,
  memoryLimitMb: number | null,
  memoryCapMb: number | null,
];

/**
 * One read buffer for every file hashed: a buffer this size is mapped fresh each time it is
 * allocated, and memory touched for the first time is what costs here (the 20 Spider databases:
 * 579 -> 134 page faults, 15 -> 5 ms with 256 KiB reused instead of 1 MiB each).
 */
let hashChunk: Buffer | undefined;

function hashFile(path: string): string {
  const h = createHash('sha256');
  const chunk = (hashChunk ??= Buffer.allocUnsafe(1 << 18));
  const fd = openSync(path, 'r');
  try {
    for (let n; (n = readSync(fd, chunk, 0, chunk.length, null)) > 0; ) h.update(chunk.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return h.digest('hex');
}

function decodeColumns(text: string): { columns: string[]; integralReals?: number[]; undecodable?: string } {
  const parsed = JSON.parse(text) as string[] | { names: string[]; integralReals?: number[]; undecodable?: string };
  if (Array.isArray(parsed)) return { columns: parsed };
  return {
    columns: parsed.names,
    ...(parsed.integralReals ? { integralReals: parsed.integralReals } : {}),
    ...(parsed.undecodable !== undefined ? { undecodable: parsed.undecodable } : {}),
  };
}
