import type { VesTiming } from './ves.js';

export interface TimingRequest {
  id: number;
  dbPath: string;
  predSql: string;
  goldSql: string;
  reps: number;
  maxRows: number;
}

export type TimingReply = { id: number; timing: VesTiming } | { id: number; error: string } | { ready: true };
