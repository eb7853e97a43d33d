import type { Task } from '../benchmark/types.js';
import type { ExecResult } from '../execution/types.js';

/**
 * Everything the CPU pass needs, already executed. Deliberately holds no labels:
 * the audit is transductive and label-free; labels enter only in evaluate.ts.
 */
export interface AuditInputs {
  tasks: Task[];
  /** Gold execution result per task (same order as `tasks`). */
  gold: ExecResult[];
  agents: AgentRun[];
  /** Extra facts about each gold query found by probe queries at execution time (tie-probe.ts). */
  goldProbes?: GoldProbe[];
}

export interface GoldProbe {
  /** The gold's ORDER BY … LIMIT N cuts through a tie; undefined when not probed or the probe failed. */
  tieAtLimit?: boolean;
  /** The gold finds nothing, but finds rows once its `col = 'value'` tests ignore case and spaces (value-probe.ts). */
  valueMismatch?: boolean;
  /** The gold's INTERSECT/EXCEPT over names answers differently from the same operation over rows (setop-probe.ts). */
  setOpConflates?: boolean;
  /** The gold finds nothing, but finds rows once its `col = 'value'` tests ignore case only: its literal is mis-cased. */
  valueCase?: boolean;
}

export interface AgentRun {
  name: string;
  /** SQL per task; undefined when the agent has no prediction for it. */
  sql: (string | undefined)[];
  /** Execution result per task; undefined when there was no SQL. */
  results: (ExecResult | undefined)[];
}

export interface AuditOptions {
  /** Seed for the decision plane's cross-validation folds (ties break by task order); same seed, same flags. */
  seed?: number;
  /** High-confidence examples per class; default 250 scaled by N/1534. */
  k?: number;
  /**
   * Let the decision plane compete for the flags: the label model alone and eight plane
   * configurations are scored by agreement with held-out agents (plane-selection.ts), and a
   * plane is used only when its lead is beyond chance. Off by default: the selection rarely
   * picks a plane, and on SALUS's labels and the injected-error benchmark the plane's flags
   * are no better than the label model's (docs/commands/audit.md).
   */
  decisionPlane?: boolean;
}

/** A labeling-function vote: the gold SQL is correct (+1), wrong (-1), or no opinion (0). */
export type Vote = 1 | -1 | 0;

/** Agent j's verdict on task i: its result agrees with the gold's, disagrees, or it has no valid result. */
export type Verdict = 'agree' | 'disagree' | 'invalid';

export interface TaskFlag {
  taskId: string;
  /** True when the gold SQL is judged wrong. */
  flagged: boolean;
  /** P(gold wrong): the label model's (the decision plane's, re-centred at its cut, with decisionPlane). */
  probability: number;
  /** Review-queue score in [0, 1]: the share of other tasks ranked less suspicious (review-order.ts); defined for every task. */
  score: number;
  /** Place in the review queue, 1 = most suspicious (tied tasks share the best place). */
  rank: number;
  /** P(gold wrong) from the label model alone. */
  labelModelProbability: number;
  /** Names of the LFs that voted (not abstained), with their vote. */
  fired: { lf: string; vote: Vote }[];
  /** The most reliable agent's SQL in a cluster of ≥ 3 agreeing agents that disagree with the gold. */
  correction?: { sql: string; agent: string; clusterSize: number };
}
