import type { Benchmark } from '../benchmark/types.js';
import { UserError } from '../errors.js';
import type { ExecutionEngine } from './engine.js';

export interface SkippedDatabase {
  dbId: string;
  /** How many of the benchmark's tasks use it (none of them is scored). */
  tasks: number;
  /** Why it cannot be used, as the engine says it (missing, not a SQLite file, ...). */
  problem: string;
}

/**
 * `--skip-missing-db`: the benchmark without the tasks whose database the engine cannot use, and what was
 * left out. Without the option one such database stops the run before any work; with it the rest is scored
 * and the run reports itself partial. With `folders` (the spider comparator) every file of a database's
 * test-suite folder must be usable too (ExecutionEngine.folderFiles).
 */
export function withoutUnusableDatabases(
  bench: Benchmark,
  engine: Pick<ExecutionEngine, 'dbPath' | 'folderFiles'>,
  folders = false,
): { bench: Benchmark; skipped: SkippedDatabase[] } {
  const problems = new Map<string, string>();
  const counts = new Map<string, number>();
  for (const t of bench.tasks) {
    counts.set(t.dbId, (counts.get(t.dbId) ?? 0) + 1);
    if (counts.get(t.dbId)! > 1) continue;
    try {
      if (folders) engine.folderFiles(t.dbId);
      else engine.dbPath(t.dbId);
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      problems.set(t.dbId, e.message);
    }
  }
  if (problems.size === 0) return { bench, skipped: [] };
  const tasks = bench.tasks.filter((t) => !problems.has(t.dbId));
  if (tasks.length === 0) throw new UserError(`--skip-missing-db: no task's database can be used (first: ${[...problems.values()][0]})`);
  const skipped = [...problems].map(([dbId, problem]) => ({ dbId, tasks: counts.get(dbId)!, problem })).sort((a, b) => a.dbId.localeCompare(b.dbId));
  return { bench: { ...bench, tasks }, skipped };
}
