/** A result cell. Integers outside ±2^53 stay bigint so they compare exactly. */
export type { Cell } from '../values/cell.js';
import type { Cell } from '../values/cell.js';

export type ExecStatus = 'ok' | 'error' | 'timeout';

export interface ExecResult {
  status: ExecStatus;
  /** Column names in order; duplicates survive (`SELECT a.id, b.id`). */
  columns: string[];
  /** Rows as arrays; empty unless status is ok. */
  rows: Cell[][];
  /**
   * Cells (row * columns + column) holding a REAL whose value is integral, e.g. AVG's 3.0. They
   * arrive as plain numbers like INTEGER 3, and Python's `==` agrees, but test-suite-sql-eval's row
   * sort key uses `str(x) + str(type(x))` ("3.0<class 'float'>" vs "3<class 'int'>"), so the Spider
   * comparator needs to know. Absent when there are none.
   */
  integralReals?: number[];
  /**
   * Set when some TEXT cell's bytes are not valid UTF-8: such cells hold Python's
   * `errors="ignore"` decoding (test-suite-sql-eval's), and this is the error Python's strict
   * decoding raises on fetching them (BIRD's evaluators), which makes the result an execution
   * error under BIRD's rules (birdView).
   */
  undecodable?: string;
  /**
   * rowSetDigest(rows), when the execution process computed it: then `rows` may be left empty, as
   * the `bird` comparison needs only this.
   */
  rowSet?: string;
  /** Why it failed (SQLite's message, "result too large", "timed out after 30 s", a write refused...). */
  error?: string;
  /**
   * Set when the memory cap stopped it (an error): that cap in MiB (--max-memory-mb). The error
   * holds only under the same cap or a tighter one; the run store reuses it only then.
   */
  memoryLimitMb?: number;
  /** The query's own execution time in milliseconds (from the store when reused). */
  ms: number;
}

export interface ExecRequest {
  dbId: string;
  sql: string;
  /** One of ExecutionEngine.folderFiles(dbId) (test-suite's extra databases); default the database file. */
  file?: string;
}
