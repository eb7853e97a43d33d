import { wilson, type Interval } from './intervals.js';

export interface ResidualErrors {
  /** Tasks with a human gold label among those analysed. */
  labelled: number;
  /** Of those, the unflagged ones, and how many of them have wrong gold by the human label. */
  unflagged: number;
  wrongUnflagged: number;
  /** wrongUnflagged / unflagged with its Wilson interval: the wrong-gold rate left in the "clean" subset. */
  rate: Interval;
  /** Of the labelled tasks, the flagged ones, and how many of them have wrong gold (the flags' precision there). */
  flagged: number;
  wrongFlagged: number;
}

/**
 * The wrong-gold rate that remains among unflagged tasks, measured on the tasks a human labelled
 * (goldRight: true = the gold is right). Valid for the whole clean subset only when the labelled tasks are
 * a random sample of the benchmark (SALUS's 200 are); the interval is Wilson's on the unflagged labelled tasks.
 */
export function residualErrors(tasks: readonly string[], flagged: (task: string) => boolean, goldRight: ReadonlyMap<string, boolean>, confidence = 0.95): ResidualErrors {
  let unflagged = 0;
  let wrongUnflagged = 0;
  let flaggedN = 0;
  let wrongFlagged = 0;
  for (const t of tasks) {
    const g = goldRight.get(t);
    if (g === undefined) continue;
    if (flagged(t)) {
      flaggedN++;
      if (!g) wrongFlagged++;
    } else {
      unflagged++;
      if (!g) wrongUnflagged++;
    }
  }
  return { labelled: unflagged + flaggedN, unflagged, wrongUnflagged, rate: wilson(wrongUnflagged, unflagged, confidence), flagged: flaggedN, wrongFlagged };
}
