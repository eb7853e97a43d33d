import type { ExecResult } from './types.js';

export interface PoolJob {
  jobId: number;
  dbPath: string;
  sql: string;
}

export type ParentMessage = { type: 'batch'; jobs: PoolJob[]; maxRows: number };

export type ChildMessage =
  | { type: 'ready' }
  | { type: 'idle' }
  | { type: 'result'; jobId: number; result: ExecResult };
