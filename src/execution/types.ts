/** A result cell. Integers outside ±2^53 stay bigint so they compare exactly. */
export type Cell = null | number | bigint | string | Uint8Array;

export type ExecStatus = 'ok' | 'error' | 'timeout';

export interface ExecResult {
  status: ExecStatus;
  /** Column names in order; duplicates survive (`SELECT a.id, b.id`). */
  columns: string[];
  /** Rows as arrays; empty unless status is ok. */
  rows: Cell[][];
  /** Why it failed (SQLite's message, "result too large", "timed out after 30 s", a write refused...). */
  error?: string;
  /** The query's own execution time in milliseconds (from the store when reused). */
  ms: number;
}

export interface ExecRequest {
  dbId: string;
  sql: string;
}
