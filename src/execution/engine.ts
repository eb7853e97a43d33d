import { existsSync, realpathSync, statSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import { basename, isAbsolute, relative, resolve } from 'node:path';
import { UserError } from '../errors.js';
import { sqliteInUse, type SqliteInUse } from './sqlite-check.js';
import type { SqliteCompat } from './sqlite-compat.js';
import { databaseFile, dbIdProblem, sqliteFileProblem, testSuiteFiles } from './database-file.js';
import { ExecutionStore } from './result-store.js';
import { PREVIEW_ROWS, previewOf, type ResultPreview } from './result-preview.js';
import { killTimingProcesses } from './timing-processes.js';
import type { RunStore } from '../store/run-store.js';
import { ProcessPool } from './pool.js';
import { canMeasureMemory } from './process-memory.js';
import { DEFAULT_MAX_MEMORY_MB, maxWorkers } from './worker-count.js';
import { selectCount } from './select-count.js';
import { fromWire } from './wire-result.js';
import { DEFAULT_MAX_RESULT_BYTES, MAX_RESULT_BYTES } from './result-limits.js';
import type { ExecRequest, ExecResult } from './types.js';
import type { WireResult } from './pool-protocol.js';

export interface EngineOptions {
  /** Holds `<db_id>/<db_id>.sqlite`. */
  dbRoot: string;
  /** Per-query limit in seconds (default 30). */
  timeoutSec?: number;
  /** Larger results are an execution error "result too large" (default 1,000,000). */
  maxRows?: number;
  /** Larger results (see runQuery's cellBytes) are the execution error "result too large" (default 64 MiB). */
  maxResultBytes?: number;
  /** Resident memory cap per execution process in MiB, enforced from outside it (default 1024). */
  maxMemoryMb?: number;
  /** Child processes (default: one per core; never more than the cores, nor than memory allows). */
  workers?: number;
  /** Keeps every execution; a re-run executes nothing it already has. */
  store?: RunStore;
  /** --sqlite-compat: an older SQLite whose functions alone every query may call (sqlite-compat.ts). */
  sqliteCompat?: string;
}

export interface EngineStats {
  /** Requests received (with repeats). */
  requested: number;
  /** Distinct (database, SQL) pairs among them. */
  distinct: number;
  /** Executed now. */
  executed: number;
  /** Taken from the run store. */
  reused: number;
  /** Sum of the executed queries' own times, in ms. */
  executionMs: number;
}

export { databaseFile } from './database-file.js';

// Kept apart so that the CLI's option table (--help) has them without loading the engine.
export { DEFAULT_MAX_RESULT_BYTES, MAX_RESULT_BYTES } from './result-limits.js';
export { DEFAULT_MAX_MEMORY_MB } from './worker-count.js';
/** An execution process needs about 60 MB (100 MB from source through tsx) before it runs anything. */
export const MIN_MEMORY_MB = 192;

/** A distinct query to run, with what keeping its result in the run store needs. */
interface QueryJob {
  storeKey: string;
  dbSha: string;
  dbPath: string;
  sql: string;
}

/** A result prefetch() asked for, until a run() takes it. */
interface EarlyResult {
  /** Whether it carries rows (prefetch's needRows): only a run() with the same needs takes it. */
  rows: boolean;
  /** Set once it exists. */
  result?: ExecResult;
  /** Found in the run store rather than executed (run() counts it as reused). */
  stored: boolean;
  /** A run() waiting for it. */
  taken?: (result: ExecResult) => void;
}

/** The same result without its rows (the same object when it has none). */
export function withoutRows(r: ExecResult): ExecResult {
  return r.rows.length === 0 ? r : { ...r, rows: [] };
}

/**
 * Executes queries read-only against benchmark databases, each distinct (database, SQL)
 * once per run, in parallel child processes, reusing whatever the run store already holds.
 */
export class ExecutionEngine {
  readonly stats: EngineStats = { requested: 0, distinct: 0, executed: 0, reused: 0, executionMs: 0 };
  private readonly pool: ProcessPool;
  private readonly store: ExecutionStore | undefined;
  private readonly timeoutMs: number;
  private readonly maxRows: number;
  private readonly maxBytes: number;
  /** Things the caller should tell the user (e.g. --workers lowered). */
  readonly notes: string[] = [];
  /** Results kept by query number (queryId). */
  private readonly memo = new Map<number, ExecResult>();
  /** Results prefetch() started or found, by query number, until a run() takes them. */
  private readonly early = new Map<number, EarlyResult>();
  /** Set when keeping a result failed (a full disk): the pool is closed, and every run() rejects. */
  private failure: { error: unknown } | undefined;
  private failListeners: ((error: unknown) => void)[] = [];
  private readonly shaByPath = new Map<string, string>();
  /** The SQLite every query runs on, for the provenance. */
  readonly sqlite: SqliteInUse;
  /** --sqlite-compat: what every query connection refuses. */
  readonly compat: SqliteCompat | undefined;
  private readonly storeVariant: string;
  /** Each database file's (by its hash) queries, by SQL text: their numbers (queryId). */
  private readonly queryIds = new Map<string, Map<string, number>>();
  private queries = 0;
  private readonly paths = new Map<string, string>();
  private readonly sizes = new Map<string, number>();
  private readonly folders = new Map<string, string[]>();

  constructor(private readonly opts: EngineOptions) {
    const timeoutSec = opts.timeoutSec ?? 30;
    if (!(timeoutSec > 0)) throw new UserError('--timeout must be a positive number of seconds');
    this.timeoutMs = Math.round(timeoutSec * 1000);
    this.maxRows = opts.maxRows ?? 1_000_000;
    if (!(Number.isInteger(this.maxRows) && this.maxRows >= 0)) throw new UserError('--max-rows must be a non-negative integer');
    this.maxBytes = opts.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES;
    if (!(Number.isInteger(this.maxBytes) && this.maxBytes >= 0 && this.maxBytes <= MAX_RESULT_BYTES)) {
      throw new UserError(`--max-result-bytes must be a whole number from 0 to ${MAX_RESULT_BYTES.toLocaleString('en-US')} (what the run store can always hold)`);
    }
    const memoryMb = opts.maxMemoryMb ?? DEFAULT_MAX_MEMORY_MB;
    if (!(Number.isFinite(memoryMb) && memoryMb >= MIN_MEMORY_MB)) {
      throw new UserError(`--max-memory-mb must be at least ${MIN_MEMORY_MB} (an execution process needs about 100 MB before it runs anything)`);
    }
    // Before any process starts: a SQLite that cannot read double-quoted strings as the official one never scores.
    const sqlite = sqliteInUse(opts.sqliteCompat);
    this.sqlite = sqlite.sqlite;
    this.compat = sqlite.compat;
    // Results under --sqlite-compat are kept apart from the others.
    this.storeVariant = this.compat ? `sqlite-compat ${this.compat.version}` : '';
    const workers = this.workerCount(opts.workers, memoryMb);
    this.pool = new ProcessPool({
      size: workers,
      timeoutMs: this.timeoutMs,
      maxRows: this.maxRows,
      maxBytes: this.maxBytes,
      ...(canMeasureMemory() ? { maxMemoryBytes: memoryMb * 2 ** 20 } : {}),
      ...(this.compat ? { compat: this.compat } : {}),
    });
    if (!canMeasureMemory()) this.notes.push('no /proc on this system: --max-memory-mb is not enforced');
    // A memory limit's error kept under a looser cap than this run's (or any, where none is enforced)
    // is run again, and so is any other result kept under a tighter cap.
    this.store = opts.store ? new ExecutionStore(opts.store, canMeasureMemory() ? memoryMb : Number.POSITIVE_INFINITY) : undefined;
    // With nothing to reuse, the first process starts now and boots while the caller reads its files
    // (the pool starts the others once the queued work is worth them). With a run store that holds
    // executions, it starts with the first query not found there, so a re-run that finds everything
    // starts none.
    if (!this.store || this.store.isEmpty()) this.pool.warm();
  }

  /**
   * --workers, capped by the cores (more processes only queue for them) and by memory: every
   * process may grow to --max-memory-mb, and together they may take at most half of the machine.
   */
  private workerCount(asked: number | undefined, memoryMb: number): number {
    if (asked !== undefined && !(Number.isInteger(asked) && asked >= 1)) throw new UserError(`--workers must be a whole number ≥ 1 (got ${String(asked)})`);
    const cores = availableParallelism();
    const cap = maxWorkers(memoryMb);
    if (asked === undefined) return cap;
    if (asked > cap) {
      const why = cap === cores ? `${cores} cores` : `half the memory (${Math.round(totalmem() / 2 ** 30)} GiB) at --max-memory-mb ${memoryMb} each`;
      this.notes.push(`--workers ${asked} lowered to ${cap}: more processes than ${why} would only compete`);
      return cap;
    }
    return asked;
  }

  /** Where a database lives under --db-root, whether or not it is there. */
  private pathOf(dbId: string): string {
    return resolve(databaseFile(this.opts.dbRoot, dbId));
  }

  /** Whether a database is there, for callers that skip items on missing ones instead of failing. */
  hasDatabase(dbId: string): boolean {
    return this.paths.has(dbId) || (dbIdProblem(dbId) === undefined && existsSync(this.pathOf(dbId)));
  }

  /**
   * Path of a database; a UserError naming what to fix when `dbId` is no plain name inside
   * --db-root or its file is no SQLite database (`taskId` names the question that needs it).
   */
  dbPath(dbId: string, taskId?: string): string {
    const known = this.paths.get(dbId);
    if (known) return known;
    const who = taskId !== undefined ? `question ${taskId}: ` : '';
    const idProblem = dbIdProblem(dbId);
    if (idProblem) throw new UserError(`${who}db_id ${JSON.stringify(dbId)} ${idProblem} (check the questions file)`);
    const path = this.pathOf(dbId);
    const problem = sqliteFileProblem(path);
    if (problem === 'does not exist') {
      throw new UserError(`${who}unknown database "${dbId}": ${path} does not exist (check --db-root and the questions file)`);
    }
    if (problem) throw new UserError(`${who}database "${dbId}": ${path} ${problem} (check --db-root)`);
    this.noteLinkOutside(path);
    this.paths.set(dbId, path);
    return path;
  }

  private realDbRoot: string | undefined;
  private linkOutsideNoted = false;

  /**
   * A database file (or a test-suite file beside it) may be a link that leads outside --db-root:
   * it is read where it points, which the run says once (the first such file named).
   */
  private noteLinkOutside(path: string): void {
    if (this.linkOutsideNoted) return;
    let real: string;
    try {
      this.realDbRoot ??= realpathSync(this.opts.dbRoot);
      real = realpathSync(path);
    } catch {
      return;
    }
    const rel = relative(this.realDbRoot, real);
    if (rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)) return;
    this.linkOutsideNoted = true;
    this.notes.push(`database files under --db-root resolve outside it through links (the first: ${path} → ${real}); they are read where they point`);
  }

  /**
   * The files test-suite-sql-eval runs a task's queries on: the database file, then every other
   * file in its folder whose name contains `.sqlite` (see testSuiteFiles); a UserError naming the
   * file when one is no SQLite database (officially the gold's failure there stops the evaluator).
   */
  folderFiles(dbId: string, taskId?: string): string[] {
    let files = this.folders.get(dbId);
    if (!files) {
      const found = testSuiteFiles(this.dbPath(dbId, taskId));
      if ('bad' in found) {
        throw new UserError(
          `database "${dbId}": ${found.bad} ${found.problem}; under --comparator spider every file in the database's folder whose name contains ".sqlite" is a test-suite database (move it away)`,
        );
      }
      files = found.files;
      for (const f of files) this.noteLinkOutside(f);
      this.folders.set(dbId, files);
    }
    return files;
  }

  /**
   * sha256 of every database file this engine has opened (for the outputs' provenance), by db_id, and a
   * test-suite folder's other files as `<db_id>/<file name>`; call before close().
   */
  async databaseHashes(): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const [dbId, path] of [...this.paths].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      out[dbId] = await this.sha(path);
      for (const file of this.folders.get(dbId) ?? []) if (file !== path) out[`${dbId}/${basename(file)}`] = await this.sha(file);
    }
    return out;
  }

  /** Checks that every task's database is a SQLite file before any work starts. */
  checkDatabases(tasks: Iterable<{ id: string; dbId: string }>): void {
    for (const t of tasks) this.dbPath(t.dbId, t.id);
  }

  /**
   * Starts executing `requests` now, for a run() to come: `score` sends the golds once the questions
   * are read and each system's predictions as soon as its file is, so the execution processes work
   * while this process still loads (before, they waited until every file was read). A later run()
   * with the same `needRows` takes these results as its own: the same stats, the same results, and
   * one execution per distinct query. A request whose database is unusable is left to run(), which
   * reports it. Results found in the run store are looked up now and taken as reused.
   */
  prefetch(requests: readonly ExecRequest[], needRows: boolean): void {
    if (this.failure) return;
    const fresh = new Map<number, QueryJob>();
    for (const r of requests) {
      let dbPath: string;
      try {
        dbPath = r.file ?? this.dbPath(r.dbId);
      } catch {
        continue;
      }
      const dbSha = this.sha(dbPath);
      const key = this.queryId(dbSha, r.sql);
      if (this.memo.has(key) || this.early.has(key) || fresh.has(key)) continue;
      fresh.set(key, { storeKey: this.store ? ExecutionStore.key(dbSha, r.sql, this.maxRows, this.maxBytes, this.storeVariant) : '', dbSha, dbPath, sql: r.sql });
    }
    if (fresh.size === 0) return;
    const stored = this.store ? this.store.lookupMany([...fresh.values()].map((v) => v.storeKey), this.timeoutMs, needRows) : new Map<string, ExecResult>();
    const jobs: { early: EarlyResult; v: QueryJob; cost: number }[] = [];
    // forEach, not for…of: the loops of a run that reads thousands of queries mostly run before the
    // optimising compiler has them, where every for…of step over a Map built a [key, value] array.
    fresh.forEach((v, key) => {
      const found = stored.get(v.storeKey);
      const early: EarlyResult = { rows: needRows, stored: found !== undefined };
      if (found) early.result = found;
      this.early.set(key, early);
      if (!found) jobs.push({ early, v, cost: this.costGuess(v) });
    });
    jobs.sort((a, b) => b.cost - a.cost);
    void this.pool.run(
      jobs.map((j, jobId) => ({ jobId, dbPath: j.v.dbPath, sql: j.v.sql })),
      this.wants(needRows),
      (jobId, wire) => {
        const { early, v } = jobs[jobId]!;
        const result = this.received(v, wire, needRows);
        if (!result) return;
        // Kept only until a run() takes it (its rows, if any, then go with that run's results).
        if (early.taken) early.taken(result);
        else early.result = result;
      },
    );
  }

  /** What the execution processes send back: rows when the caller needs them, a digest for the store. */
  private wants(needRows: boolean): { rows: boolean; rowSet: boolean } {
    return { rows: needRows, rowSet: !needRows || this.store !== undefined };
  }

  /**
   * An execution's answer: kept in the run store and counted, or undefined once the run has failed.
   * A failure to keep it (a full disk) stops every run: the processes are stopped and run() rejects;
   * every result saved before it stays in the store, so a re-run resumes there.
   */
  private received(v: QueryJob, wire: WireResult, needRows: boolean): ExecResult | undefined {
    if (this.failure) return undefined;
    try {
      this.store?.save(v.storeKey, v.dbSha, v.sql, wire, this.timeoutMs, this.maxRows);
    } catch (e) {
      this.failure = { error: e };
      void this.pool.close();
      for (const l of this.failListeners) l(e);
      return undefined;
    }
    const result = fromWire(wire, needRows);
    this.stats.executed++;
    this.stats.executionMs += result.ms;
    return result;
  }

  /**
   * Results in the order of `requests`; repeats share one execution (and one result object).
   * `onResult` hears about each request as soon as its result exists (at once for reused ones),
   * so callers can compare while other queries still run.
   */
  async run(
    requests: ExecRequest[],
    onProgress?: (done: number, total: number) => void,
    onResult?: (requestIndex: number, result: ExecResult) => void,
    opts: { keepRows?: boolean; needRows?: boolean; first?: (requestIndex: number) => boolean } = {},
  ): Promise<ExecResult[]> {
    // keepRows: false — the caller consumes rows in onResult; the engine returns every result
    // without rows and memoises none, executed now or read from the store, so big results die
    // young instead of filling the heap (the store still gets every row).
    // needRows: false — the caller compares with ExecResult.rowSet only (the `bird` comparison):
    // rows stay in the execution processes and the run store, and never reach this process.
    const needRows = opts.needRows ?? true;
    const keepRows = needRows && (opts.keepRows ?? true);
    /** This call's results by key (rows dropped once onResult has had them, unless keepRows). */
    const found = new Map<number, ExecResult>();
    this.stats.requested += requests.length;
    const keys = new Array<number>(requests.length);
    const todo = new Map<number, QueryJob & { lead: boolean }>();
    // A request names its database, or one file of its folder (folderFiles): each file is hashed,
    // and keyed in the memo and the store, on its own.
    const paths = requests.map((r) => r.file ?? this.dbPath(r.dbId));
    const shas = new Map<string, string>();
    for (const path of new Set(paths)) shas.set(path, this.sha(path));
    // Each distinct query once, by its number: the first request that asks for it.
    const distinct = new Map<number, number>();
    for (let i = 0; i < requests.length; i++) {
      const key = this.queryId(shas.get(paths[i]!)!, requests[i]!.sql);
      keys[i] = key;
      if (!distinct.has(key)) distinct.set(key, i);
    }
    this.stats.distinct += distinct.size;
    if (this.failure) throw this.failure.error;
    // Started by prefetch() (taken as they are, or when they arrive), else known from an earlier
    // call of this engine, else looked up in the run store (all at once, by their store keys: a
    // content hash, made only for these).
    const early = new Map<number, EarlyResult>();
    const storeKeys = new Map<number, string>();
    distinct.forEach((request, key) => {
      if (this.memo.has(key)) return;
      const e = this.early.get(key);
      if (e && e.rows === needRows) {
        early.set(key, e);
        this.early.delete(key);
      } else if (this.store) {
        storeKeys.set(key, ExecutionStore.key(shas.get(paths[request]!)!, requests[request]!.sql, this.maxRows, this.maxBytes, this.storeVariant));
      }
    });
    const stored = this.store && storeKeys.size > 0 ? this.store.lookupMany([...storeKeys.values()], this.timeoutMs, needRows) : new Map<string, ExecResult>();
    let reusedNow = 0;
    /** Prefetched results already there (executed before this call), and those still running. */
    let arrived = 0;
    const arriving: [number, EarlyResult][] = [];
    distinct.forEach((request, key) => {
      const e = early.get(key);
      if (e?.result) {
        if (keepRows) this.memo.set(key, e.result);
        found.set(key, e.result);
        // Taken: the entry (still referenced by prefetch's jobs) no longer holds the rows.
        e.result = undefined;
        if (e.stored) {
          this.stats.reused++;
          reusedNow++;
        } else arrived++;
        return;
      }
      if (e) {
        arriving.push([key, e]);
        return;
      }
      const storeKey = storeKeys.get(key) ?? '';
      const known = this.memo.get(key) ?? stored.get(storeKey);
      if (known) {
        if (keepRows) this.memo.set(key, known);
        found.set(key, known);
        this.stats.reused++;
        reusedNow++;
      } else {
        // The first query to run starts the process the constructor did not.
        if (todo.size === 0) this.pool.warm();
        const dbPath = paths[request]!;
        todo.set(key, { storeKey, dbSha: shas.get(dbPath)!, dbPath, sql: requests[request]!.sql, lead: opts.first?.(request) ?? false });
      }
    });
    const total = reusedNow + arrived + arriving.length + todo.size;
    let done = reusedNow + arrived;
    onProgress?.(done, total);
    const waiting = new Map<number, number[]>();
    keys.forEach((key, i) => {
      const known = found.get(key);
      if (known) onResult?.(i, known);
      else if (onResult) {
        const list = waiting.get(key);
        if (list) list.push(i);
        else waiting.set(key, [i]);
      }
    });
    if (!keepRows) found.forEach((r, key) => found.set(key, withoutRows(r)));
    // Longest-first keeps both processes busy to the end: a heavy query started last would
    // leave the other process idle. Cost is guessed from the database's size and the nesting.
    // The requests `first` picks (the golds) go first, so that a caller comparing as results arrive
    // never holds many big prediction results while their golds wait in the queue.
    const entries = [...todo.entries()]
      .map((e) => ({ e, cost: this.costGuess(e[1]) }))
      .sort((a, b) => Number(b.e[1].lead) - Number(a.e[1].lead) || b.cost - a.cost)
      .map(({ e }) => e);
    const arrive = (key: number, result: ExecResult): void => {
      if (keepRows) this.memo.set(key, result);
      found.set(key, keepRows ? result : withoutRows(result));
      for (const i of waiting.get(key) ?? []) onResult!(i, result);
      onProgress?.(++done, total);
    };
    let stop: (e: unknown) => void = () => {};
    const stopped = new Promise<never>((_resolve, reject) => (stop = reject));
    this.failListeners.push(stop);
    const prefetched = new Promise<void>((resolve) => {
      let left = arriving.length;
      if (left === 0) resolve();
      for (const [key, e] of arriving) {
        e.taken = (result) => {
          arrive(key, result);
          if (--left === 0) resolve();
        };
      }
    });
    // The store wants each result's digest (cheap) and its rows only when this caller needs them:
    // a result kept without rows is executed again for a later caller that needs them.
    const executed = this.pool.run(
      entries.map(([, v], jobId) => ({ jobId, dbPath: v.dbPath, sql: v.sql })),
      this.wants(needRows),
      (jobId, wire) => {
        const [key, v] = entries[jobId]!;
        const result = this.received(v, wire, needRows);
        if (result) arrive(key, result);
      },
    );
    try {
      await Promise.race([Promise.all([executed, prefetched]), stopped]);
    } finally {
      this.failListeners = this.failListeners.filter((l) => l !== stop);
      if (!this.failure) this.store?.flush();
    }
    return keys.map((k) => found.get(k)!);
  }

  /**
   * Previews of results this engine has run or found in the run store (never executes; works after
   * close()): undefined for a request it has no result for. Keyed as run() keys them.
   */
  async previews(requests: readonly ExecRequest[], rows = PREVIEW_ROWS): Promise<(ResultPreview | undefined)[]> {
    const byKey = new Map<number, ResultPreview | undefined>();
    const out: (ResultPreview | undefined)[] = [];
    for (const r of requests) {
      const dbSha = this.sha(this.dbPath(r.dbId));
      const key = this.queryId(dbSha, r.sql);
      if (!byKey.has(key)) {
        const kept = this.memo.get(key);
        byKey.set(key, kept ? previewOf(kept) : this.store?.preview(ExecutionStore.key(dbSha, r.sql, this.maxRows, this.maxBytes, this.storeVariant), rows));
      }
      out.push(byKey.get(key));
    }
    return out;
  }

  /** Process ids of the execution processes now alive. */
  workerPids(): number[] {
    return this.pool.pids();
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  /**
   * For a signal that ends the process now (SIGINT, SIGTERM): kills every execution process at once
   * (a query inside SQLite cannot be stopped any other way, and an orphan would run it to the end)
   * and writes the results waiting for their transaction, so the run store holds every finished one.
   */
  interruptNow(): void {
    for (const pid of this.pool.pids()) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    killTimingProcesses();
    this.store?.flush();
  }

  private costGuess(job: { dbPath: string; sql: string }): number {
    let size = this.sizes.get(job.dbPath);
    if (size === undefined) {
      size = statSync(job.dbPath).size;
      this.sizes.set(job.dbPath, size);
    }
    return size * (selectCount(job.sql) || 1);
  }

  /**
   * A query's key in this engine's maps: a number of this engine's own for each distinct (database
   * file, SQL). Found by the SQL string itself, whose hash V8 keeps with the string once computed: a
   * key string built per lookup (as `<database>\n<SQL>` once was) was hashed whole at every lookup.
   */
  private queryId(dbSha: string, sql: string): number {
    let ids = this.queryIds.get(dbSha);
    if (!ids) this.queryIds.set(dbSha, (ids = new Map()));
    let id = ids.get(sql);
    if (id === undefined) ids.set(sql, (id = this.queries++));
    return id;
  }

  private sha(dbPath: string): string {
    let sha = this.shaByPath.get(dbPath);
    if (!sha) {
      sha = this.store ? this.store.fileHash(dbPath) : `path:${dbPath}`;
      this.shaByPath.set(dbPath, sha);
    }
    return sha;
  }
}

