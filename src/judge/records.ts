import type { Benchmark, ItemRecord } from '../benchmark/types.js';
import { taskDifficulty } from '../execution/ex-run.js';
import type { JudgeRecord } from './run.js';

/**
 * The `judge --items` line: the fields `leaderboard`, `validate` and
 * `import rose` share come first ({"system", "taskId", "dbId", "judge", "ex",
 * "correct", "route", "goldX", "ambQ", "ambSchema", "unscored"?, "difficulty"?}),
 * then the stage answers and usage. `correct` is the judge's verdict, null when unscored.
 */
export function judgeItemRecord(r: JudgeRecord, extra: { difficulty?: string } = {}): ItemRecord {
  const { system, taskId, dbId, judge, ex, correct, route, goldX, ambQ, ambSchema, unscored, ...rest } = r;
  const rec: Record<string, unknown> = { system, taskId, dbId, judge, ex, correct, route, goldX, ambQ, ambSchema };
  if (unscored !== undefined) rec.unscored = unscored;
  if (extra.difficulty !== undefined) rec.difficulty = extra.difficulty;
  for (const [k, v] of Object.entries(rest)) if (v !== undefined) rec[k] = v;
  return rec as ItemRecord;
}

/** A run's `judge --items` lines, each with its task's difficulty as `score --items` gives it. */
export function judgeItemRecords(items: readonly JudgeRecord[], bench: Benchmark): ItemRecord[] {
  const difficulty = new Map(bench.tasks.map((t) => [t.id, taskDifficulty(bench, t)]));
  return items.map((r) => judgeItemRecord(r, { difficulty: difficulty.get(r.taskId) }));
}
