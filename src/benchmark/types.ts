import type { RepairCounts } from './repairs.js';

/** One benchmark question with its gold SQL. `id` is a string everywhere (BIRD question_id or Spider position). */
export interface Task {
  id: string;
  dbId: string;
  question: string;
  /** BIRD's external knowledge; empty for Spider. */
  evidence: string;
  goldSql: string;
  /** BIRD: simple/moderate/challenging from the file; Spider: computed from the gold SQL. */
  difficulty?: string;
}

export type BenchmarkFormat = 'bird' | 'spider';

export interface Benchmark {
  format: BenchmarkFormat;
  /** Path of the questions file, for messages. */
  source: string;
  tasks: Task[];
  /** Oddities of the file worth telling the user (e.g. repeated question ids). */
  notes?: string[];
}

/** A system's SQL for one task. */
export interface Prediction {
  taskId: string;
  sql: string;
  /** db_id when the file names one (checked against the task's). */
  dbId?: string;
  /** 1-based line in the prediction file, for error messages. */
  line?: number;
}

export interface PredictionSet {
  system: string;
  file: string;
  /** taskId → prediction; a task without one counts wrong and is reported missing. */
  byTask: Map<string, Prediction>;
  /** Detected file format, e.g. "spider-text", "bird-json", "csv". */
  format?: string;
  /** Repairs and oddities worth telling the user (e.g. `SELECT ` restored on 1,034 lines). */
  notes?: string[];
  /** Predictions changed by each opt-in repair that was on. */
  repairs?: RepairCounts;
}

/**
 * One (system, task) verdict line, as written by `score --items` and read by
 * `leaderboard`, `validate` and `audit`. Judge runs add their own fields.
 */
export interface ItemRecord {
  system: string;
  taskId: string;
  dbId?: string;
  /** null: no decision (e.g. the judge abstained); readers count it wrong or skip it. */
  correct: boolean | null;
  /** Subset name (validation sets: the file's base name). */
  subset?: string;
  difficulty?: string;
  missing?: boolean;
  predError?: string;
  goldError?: string;
  timedOut?: boolean;
  [extra: string]: unknown;
}
