import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { UserError } from '../errors.js';
import { ExecutionStore } from '../store/executions.js';
import type { RunStore } from '../store/run-store.js';
import { ProcessPool } from './pool.js';
import type { ExecRequest, ExecResult } from './types.js';

export interface EngineOptions {
  /** Holds `<db_id>/<db_id>.sqlite`. */
  dbRoot: string;
  /** Per-query limit in seconds (default 30). */
  timeoutSec?: number;
  /** Larger results are an execution error "result too large" (default 1,000,000). */
  maxRows?: number;
  /** Child processes (default: one per core). */
  workers?: number;
  /** Keeps every execution; a re-run executes nothing it already has. */
  store?: RunStore;
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
  private readonly memo = new Map<string, ExecResult>();
  private readonly shaByPath = new Map<string, string>();
  private readonly paths = new Map<string, string>();

  constructor(private readonly opts: EngineOptions) {
    const timeoutSec = opts.timeoutSec ?? 30;
    if (!(timeoutSec > 0)) throw new UserError('--timeout must be a positive number of seconds');
    this.timeoutMs = Math.round(timeoutSec * 1000);
    this.maxRows = opts.maxRows ?? 1_000_000;
    if (!(this.maxRows >= 0)) throw new UserError('--max-rows must be a non-negative integer');
    this.pool = new ProcessPool({ size: opts.workers ?? availableParallelism(), timeoutMs: this.timeoutMs, maxRows: this.maxRows });
    this.store = opts.store ? new ExecutionStore(opts.store) : undefined;
    this.pool.warm();
  }

  /** Path of a database; a UserError naming what to fix when it is not there. */
  dbPath(dbId: string): string {
    const known = this.paths.get(dbId);
    if (known) return known;
    const path = resolve(join(this.opts.dbRoot, dbId, `${dbId}.sqlite`));
    this.paths.set(dbId, path);
    if (!existsSync(path)) {
      this.paths.delete(dbId);
      throw new UserError(`unknown database "${dbId}": ${path} does not exist (check --db-root and the questions file)`);
    }
    return path;
  }

  /** Checks that every database exists before any work starts. */
  checkDatabases(dbIds: Iterable<string>): void {
    for (const id of new Set(dbIds)) this.dbPath(id);
  }

  /** Results in the order of `requests`; repeats share one execution (and one result object). */
  async run(requests: ExecRequest[], onProgress?: (done: number, total: number) => void): Promise<ExecResult[]> {
    this.stats.requested += requests.length;
    const keys: string[] = [];
    const todo = new Map<string, { dbSha: string; dbPath: string; sql: string }>();
    let reusedNow = 0;
    for (const r of requests) {
      const dbPath = this.dbPath(r.dbId);
      const dbSha = await this.sha(dbPath);
      const key = ExecutionStore.key(dbSha, r.sql, this.maxRows);
      keys.push(key);
      if (this.memo.has(key) || todo.has(key)) continue;
      this.stats.distinct++;
      const stored = this.store?.lookup(key, this.timeoutMs);
      if (stored) {
        this.memo.set(key, stored);
        this.stats.reused++;
        reusedNow++;
      } else {
        todo.set(key, { dbSha, dbPath, sql: r.sql });
      }
    }
    const total = reusedNow + todo.size;
    let done = reusedNow;
    onProgress?.(done, total);
    const entries = [...todo.entries()];
    await this.pool.run(
      entries.map(([, v], jobId) => ({ jobId, dbPath: v.dbPath, sql: v.sql })),
      (jobId, result) => {
        const [key, v] = entries[jobId]!;
        this.memo.set(key, result);
        this.stats.executed++;
        this.stats.executionMs += result.ms;
        this.store?.save(key, v.dbSha, v.sql, result, this.timeoutMs, this.maxRows);
        onProgress?.(++done, total);
      },
    );
    return keys.map((k) => this.memo.get(k)!);
  }

  /** Process ids of the execution processes now alive. */
  workerPids(): number[] {
    return this.pool.pids();
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  private async sha(dbPath: string): Promise<string> {
    let sha = this.shaByPath.get(dbPath);
    if (!sha) {
      sha = this.store ? await this.store.fileHash(dbPath) : `path:${dbPath}`;
      this.shaByPath.set(dbPath, sha);
    }
    return sha;
  }
}
