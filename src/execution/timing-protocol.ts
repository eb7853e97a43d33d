import type { SqliteCompat } from './sqlite-compat.js';
import type { VesTiming } from './ves.js';

export interface TimingRequest {
  id: number;
  dbPath: string;
  predSql: string;
  goldSql: string;
  reps: number;
  maxRows: number;
  /** --sqlite-compat (sqlite-compat.ts). */
  compat?: SqliteCompat;
}

export type TimingReply = { id: number; timing: VesTiming } | { id: number; error: string } | { ready: true };
