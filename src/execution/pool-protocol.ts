import type { ExecResult } from './types.js';

export interface PoolJob {
  jobId: number;
  dbPath: string;
  sql: string;
  /** Sent alone: it was in a batch whose process had to be killed, so it may be the culprit. */
  isolate?: boolean;
}

export type ParentMessage = { type: 'batch'; jobs: PoolJob[]; maxRows: number; maxBytes: number };

export type ChildMessage =
  | { type: 'ready' }
  | { type: 'idle' }
  | { type: 'results'; results: { jobId: number; result: ExecResult }[] };
