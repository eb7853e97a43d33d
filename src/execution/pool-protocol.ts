import type { SqliteCompat } from './sqlite-compat.js';
import type { ExecResult } from './types.js';

export interface PoolJob {
  jobId: number;
  dbPath: string;
  sql: string;
  /** Sent alone: it was in a batch whose process had to be killed, so it may be the culprit. */
  isolate?: boolean;
  /**
   * The rows of a text with the same variant key (variant-key.ts) on the same database, which
   * returns the same rows: the execution process prepares this one (its own columns, refusal or
   * error) and runs it only if its columns differ in number. Only for jobs that want a digest alone.
   */
  sameAs?: SameRows;
}

/** What a job sent with another text's rows needs of them: their digest and their number of columns. */
export interface SameRows {
  rowSet: string;
  columns: number;
}

/** What the parent needs of each result, so the execution process builds nothing more. */
export interface ResultWants {
  /** The rows, as their run-store JSON (WireResult.rowsJson). */
  rows: boolean;
  /** ExecResult.rowSet, the digest a `bird` comparison needs. */
  rowSet: boolean;
}

/**
 * A result as it leaves an execution process: the rows travel encoded for the run store (one
 * string copies faster than an array of arrays, and the parent stores it as it is).
 */
export type WireResult = Omit<ExecResult, 'rows'> & { rowsJson?: string };

export type ParentMessage =
  /** compat: --sqlite-compat, what the connections refuse (sqlite-compat.ts). */
  | { type: 'batch'; jobs: PoolJob[]; maxRows: number; maxBytes: number; want: ResultWants; compat?: SqliteCompat }
  /** Give back these jobs if they have not started (answered by 'released'). */
  | { type: 'release'; jobIds: number[] };

export type ChildMessage =
  /** rss: its resident memory then, in bytes (the runtime's own share, for the memory cap). */
  | { type: 'ready'; rss?: number }
  | { type: 'idle' }
  /** The jobs of a 'release' it had not started, and will not run. */
  | { type: 'released'; jobIds: number[] }
  | { type: 'results'; results: { jobId: number; result: WireResult }[] };
