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
 * The databases of `bench` that the engine cannot use, each with the engine's message (naming the
 * first task that needs it when `naming`); the tasks counted per database.
 */
function unusableDatabases(
  bench: Benchmark,
  engine: Pick<ExecutionEngine, 'dbPath' | 'folderFiles'>,
  folders: boolean,
  naming = false,
): { problems: Map<string, string>; counts: Map<string, number> } {
  const problems = new Map<string, string>();
  const counts = new Map<string, number>();
  for (const t of bench.tasks) {
    counts.set(t.dbId, (counts.get(t.dbId) ?? 0) + 1);
    if (counts.get(t.dbId)! > 1) continue;
    try {
      const taskId = naming ? t.id : undefined;
      if (folders) engine.folderFiles(t.dbId, taskId);
      else engine.dbPath(t.dbId, taskId);
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      problems.set(t.dbId, e.message);
    }
  }
  return { problems, counts };
}

/**
 * Without `--skip-missing-db`: stops before any work at the first database the engine cannot use,
 * with the engine's message and the ways to go on (how many others cannot be used either).
 */
export function requireUsableDatabases(bench: Benchmark, engine: Pick<ExecutionEngine, 'dbPath' | 'folderFiles'>, folders = false): void {
  const { problems, counts } = unusableDatabases(bench, engine, folders, true);
  if (problems.size === 0) return;
  const [first] = problems.values();
  const tasks = [...problems.keys()].reduce((n, db) => n + counts.get(db)!, 0);
  const which = problems.size === 1 ? 'this database' : `${problems.size} of the ${counts.size} databases (${[...problems.keys()].slice(0, 10).join(', ')}${problems.size > 10 ? ', …' : ''})`;
  throw new UserError(
    `${first!}; ${which} cannot be used (${tasks} tasks): --skip-missing-db scores the tasks of the others, --db NAME,… scores only the databases named`,
  );
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
  const { problems, counts } = unusableDatabases(bench, engine, folders);
  if (problems.size === 0) return { bench, skipped: [] };
  const tasks = bench.tasks.filter((t) => !problems.has(t.dbId));
  if (tasks.length === 0) throw new UserError(`--skip-missing-db: no task's database can be used (first: ${[...problems.values()][0]})`);
  const skipped = [...problems].map(([dbId, problem]) => ({ dbId, tasks: counts.get(dbId)!, problem })).sort((a, b) => a.dbId.localeCompare(b.dbId));
  return { bench: { ...bench, tasks }, skipped };
}

/**
 * `--db NAME,…`: the benchmark with only the tasks of the databases named (each option value may
 * list several, comma-separated). A name no task uses is an error listing the ones the questions use.
 */
export function onlyDatabases(bench: Benchmark, names: readonly string[]): Benchmark {
  const wanted = new Set(names.flatMap((n) => n.split(',')).map((n) => n.trim()).filter((n) => n !== ''));
  if (wanted.size === 0) throw new UserError('--db: name at least one database (--db NAME,…)');
  const known = [...new Set(bench.tasks.map((t) => t.dbId))].sort();
  const unknown = [...wanted].filter((n) => !known.includes(n));
  if (unknown.length > 0) {
    throw new UserError(
      `--db: no question of ${bench.source} uses ${unknown.map((n) => JSON.stringify(n)).join(', ')}; its databases are: ${known.join(', ')}`,
    );
  }
  return { ...bench, tasks: bench.tasks.filter((t) => wanted.has(t.dbId)) };
}
