import type { ItemRecord } from '../benchmark/types.js';
import { wilson, type Interval } from './intervals.js';

/** One system on one database's tasks. */
export interface DatabaseCell {
  system: string;
  /** The database's tasks (a task without this system's verdict counts wrong, as overall). */
  n: number;
  correct: number;
  /** EX (or judge accuracy) with a Wilson interval. */
  accuracy: Interval;
  /** Means of the per-item metrics asked for (e.g. softF1, em), by metric name; a missing value counts 0. */
  metrics: Record<string, number>;
}

export interface DatabaseBreakdown {
  dbId: string;
  tasks: number;
  /** In the order of the `systems` argument. */
  systems: DatabaseCell[];
}

/** Label for tasks whose records carry no dbId. */
export const UNKNOWN_DB = '(no db_id)';

/**
 * Per-database scores: each database's tasks are those any system has a record for, and each system's accuracy
 * on them counts a task right only when its record says `correct: true` (missing or undecided count wrong,
 * as in the overall score). `metricFields` maps a metric name to the item field holding its per-item value.
 */
export function breakdownByDatabase(
  items: readonly ItemRecord[],
  systems: readonly string[],
  metricFields: Readonly<Record<string, string>> = {},
  confidence = 0.95,
): DatabaseBreakdown[] {
  const tasksByDb = new Map<string, Set<string>>();
  const byKey = new Map<string, ItemRecord>();
  for (const it of items) {
    const db = it.dbId ?? UNKNOWN_DB;
    let tasks = tasksByDb.get(db);
    if (!tasks) tasksByDb.set(db, (tasks = new Set()));
    tasks.add(it.taskId);
    byKey.set(`${it.system}\u0000${it.taskId}`, it);
  }
  return [...tasksByDb.keys()].sort().map((dbId) => {
    const tasks = [...tasksByDb.get(dbId)!];
    return {
      dbId,
      tasks: tasks.length,
      systems: systems.map((system) => {
        let correct = 0;
        const sums: Record<string, number> = Object.fromEntries(Object.keys(metricFields).map((m) => [m, 0]));
        for (const t of tasks) {
          const r = byKey.get(`${system}\u0000${t}`);
          if (r?.correct === true) correct++;
          for (const [metric, field] of Object.entries(metricFields)) {
            const v = r?.[field];
            if (typeof v === 'number') sums[metric]! += v;
          }
        }
        const metrics = Object.fromEntries(Object.entries(sums).map(([m, s]) => [m, s / tasks.length]));
        return { system, n: tasks.length, correct, accuracy: wilson(correct, tasks.length, confidence), metrics };
      }),
    };
  });
}
