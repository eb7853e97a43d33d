import type { TaskContext } from '../context.js';
import type { Vote } from '../types.js';

export type LfFamily = 'execution' | 'consensus' | 'structural' | 'pattern' | 'intent' | 'meta';

/** One labeling function: votes on whether the gold SQL is correct (+1), wrong (-1), or abstains (0). */
export interface LabelingFunction {
  name: string;
  family: LfFamily;
  /** One line: what it checks and which way it votes. */
  doc: string;
  /**
   * Its "error" vote states a fact about the gold, not a guess (the gold does not run; its
   * LIMIT cuts through a tie, so its answer is arbitrary). EM cannot learn such an LF's
   * worth when the agents copy the same mistake, so its error vote overrides the models.
   */
  decisive?: boolean;
  vote(c: TaskContext): Vote;
}

/** The gold's result is out-voted: a rival cluster of ≥ 2 agents is larger than the gold's agreeing agents. */
export function outvoted(c: TaskContext): boolean {
  return c.rival !== undefined && c.rival.members.length > c.nAgree;
}

/** Negative structural votes need an execution mismatch (issue rule): a different structure alone proves nothing. */
export function errorIf(cond: boolean, c: TaskContext): Vote {
  return cond && outvoted(c) ? -1 : 0;
}
