import type { Benchmark, ItemRecord, PredictionSet, Task } from '../benchmark/types.js';
import { spiderHardness } from '../sql/spider-hardness.js';
import { birdEqual } from './compare-bird.js';
import { spiderEqual, spiderExecutedSql, spiderOrderMatters } from './compare-spider.js';
import { withoutRows, type ExecutionEngine, type EngineStats } from './engine.js';
import type { ExecRequest, ExecResult } from './types.js';

export type ComparatorName = 'bird' | 'spider';

export interface ExOptions {
  comparator: ComparatorName;
  /** spider comparator only: compare with DISTINCT kept (test-suite's --keep_distinct). */
  keepDistinct?: boolean;
}

export interface DifficultyScore {
  n: number;
  correct: number;
  accuracy: number;
}

export interface SystemScore {
  name: string;
  file: string;
  n: number;
  correct: number;
  accuracy: number;
  /** Predictions that failed to execute (timeouts included). */
  execErrors: number;
  timeouts: number;
  missing: number;
  /** Tasks whose gold failed (they count wrong for everyone, as in the official evaluators). */
  goldErrors: number;
  byDifficulty: Record<string, DifficultyScore>;
  /** Accuracy on the tasks whose gold is not flagged as wrong (with `--flags`). */
  clean?: DifficultyScore;
  notes: string[];
}

export interface ExRun {
  comparator: ComparatorName;
  keepDistinct: boolean;
  tasks: number;
  difficultyLevels: string[];
  systems: SystemScore[];
  items: ItemRecord[];
  execution: EngineStats;
}

/** Difficulty levels in report order; other levels found in a file are appended. */
const LEVELS: Record<Benchmark['format'], string[]> = {
  bird: ['simple', 'moderate', 'challenging'],
  spider: ['easy', 'medium', 'hard', 'extra'],
};

/** BIRD's file carries a difficulty; Spider's is computed from the gold SQL by the official rules. */
export function taskDifficulty(bench: Benchmark, task: Task): string {
  return task.difficulty ?? (bench.format === 'spider' ? spiderHardness(task.goldSql) : 'unknown');
}

/** The SQL the chosen official evaluator actually executes. */
function executedSql(sql: string, opts: ExOptions, isPrediction: boolean): string {
  return opts.comparator === 'spider' ? spiderExecutedSql(sql, opts.keepDistinct ?? false, isPrediction) : sql;
}

/**
 * Execution accuracy of several systems on one benchmark: gold runs once for all systems,
 * every distinct (database, SQL) once, then the official comparator decides each item.
 */
export async function runEx(
  bench: Benchmark,
  systems: PredictionSet[],
  engine: ExecutionEngine,
  opts: ExOptions,
  onProgress?: (done: number, total: number) => void,
): Promise<ExRun> {
  engine.checkDatabases(bench.tasks);
  const keepDistinct = opts.keepDistinct ?? false;
  const requests: ExecRequest[] = bench.tasks.map((t) => ({ dbId: t.dbId, sql: executedSql(t.goldSql, opts, false) }));
  const predIndex: (number | undefined)[][] = systems.map((s) =>
    bench.tasks.map((t) => {
      const p = s.byTask.get(t.id);
      if (!p) return undefined;
      requests.push({ dbId: t.dbId, sql: executedSql(p.sql, opts, true) });
      return requests.length - 1;
    }),
  );
  // Difficulty and order rules come first (parsing overlaps the processes' start-up); each
  // verdict is then decided as soon as both its gold and its prediction results exist.
  const difficulties = bench.tasks.map((t) => taskDifficulty(bench, t));
  const orderMatters = bench.tasks.map((t) => opts.comparator === 'spider' && spiderOrderMatters(t.goldSql, keepDistinct));
  const levels = LEVELS[bench.format];
  const nTasks = bench.tasks.length;
  const owner: { system: number; task: number }[] = [];
  predIndex.forEach((row, si) => row.forEach((ri, ti) => ri !== undefined && (owner[ri] = { system: si, task: ti })));
  const verdicts = systems.map(() => new Array<boolean>(nTasks).fill(false));
  const goldOf: (ExecResult | undefined)[] = new Array(nTasks);
  const predOf: (ExecResult | undefined)[] = new Array(requests.length);
  // Rows are dropped as soon as their comparisons are done, so that big results die young.
  const pending = bench.tasks.map((_, ti) => predIndex.reduce((n, row) => n + (row[ti] === undefined ? 0 : 1), 0));
  const decide = (si: number, ti: number): void => {
    const pi = predIndex[si]![ti]!;
    verdicts[si]![ti] = compare(opts.comparator, goldOf[ti]!, predOf[pi]!, orderMatters[ti]!);
    predOf[pi] = withoutRows(predOf[pi]!);
    if (--pending[ti]! === 0) goldOf[ti] = withoutRows(goldOf[ti]!);
  };
  const results = await engine.run(
    requests,
    onProgress,
    (ri, result) => {
      if (ri < nTasks) {
        // A gold no system predicted is compared with nothing: keep none of its rows.
        goldOf[ri] = pending[ri] === 0 ? withoutRows(result) : result;
        predIndex.forEach((row, si) => {
          const pi = row[ri];
          if (pi !== undefined && predOf[pi]) decide(si, ri);
        });
      } else {
        predOf[ri] = result;
        const { system, task } = owner[ri]!;
        if (goldOf[task]) decide(system, task);
      }
    },
    { keepRows: false },
  );
  const gold = results.slice(0, nTasks);

  const items: ItemRecord[] = [];
  const scores = systems.map((s, si) => {
    const score: SystemScore = {
      name: s.system,
      file: s.file,
      n: bench.tasks.length,
      correct: 0,
      accuracy: 0,
      execErrors: 0,
      timeouts: 0,
      missing: 0,
      goldErrors: 0,
      byDifficulty: Object.fromEntries(levels.map((l) => [l, { n: 0, correct: 0, accuracy: 0 }])),
      notes: [...(s.notes ?? [])],
    };
    bench.tasks.forEach((task, ti) => {
      const g = gold[ti]!;
      const idx = predIndex[si]![ti];
      const p: ExecResult | undefined = idx === undefined ? undefined : results[idx];
      const correct = p !== undefined && verdicts[si]![ti]!;
      const level = difficulties[ti]!;
      const bucket = (score.byDifficulty[level] ??= { n: 0, correct: 0, accuracy: 0 });
      bucket.n++;
      if (correct) {
        score.correct++;
        bucket.correct++;
      }
      if (p === undefined) score.missing++;
      else if (p.status !== 'ok') score.execErrors++;
      if (p?.status === 'timeout') score.timeouts++;
      if (g.status !== 'ok') score.goldErrors++;
      items.push({
        system: s.system,
        taskId: task.id,
        dbId: task.dbId,
        correct,
        difficulty: level,
        ...(p === undefined ? { missing: true } : {}),
        ...(p !== undefined && p.status !== 'ok' ? { predError: p.error ?? p.status } : {}),
        ...(g.status !== 'ok' ? { goldError: g.error ?? g.status } : {}),
        ...(p?.status === 'timeout' ? { timedOut: true } : {}),
      });
    });
    score.accuracy = score.n > 0 ? score.correct / score.n : 0;
    for (const b of Object.values(score.byDifficulty)) b.accuracy = b.n > 0 ? b.correct / b.n : 0;
    return score;
  });
  return {
    comparator: opts.comparator,
    keepDistinct,
    tasks: bench.tasks.length,
    // The format's levels, then any other level the questions file uses.
    difficultyLevels: [...new Set([...levels, ...difficulties])],
    systems: scores,
    items,
    execution: { ...engine.stats },
  };
}

function compare(comparator: ComparatorName, gold: ExecResult, pred: ExecResult, orderMatters: boolean): boolean {
  return comparator === 'bird' ? birdEqual(gold, pred) : spiderEqual(gold, pred, orderMatters);
}

/**
 * Adds accuracy on the clean subset: the tasks a gold-error detector did not flag. Tasks the
 * flags file does not mention count as clean; how many it missed is returned for the report.
 */
export function addCleanSubset(run: ExRun, flagged: Map<string, boolean>): { flagged: number; unknown: number } {
  const byTask = new Map<string, boolean>();
  for (const it of run.items) byTask.set(it.taskId, flagged.get(it.taskId) === true);
  let flaggedCount = 0;
  let unknown = 0;
  for (const [taskId, isFlagged] of byTask) {
    if (isFlagged) flaggedCount++;
    if (!flagged.has(taskId)) unknown++;
  }
  for (const s of run.systems) s.clean = { n: 0, correct: 0, accuracy: 0 };
  const bySystem = new Map(run.systems.map((s) => [s.name, s]));
  for (const it of run.items) {
    if (byTask.get(it.taskId)) continue;
    const c = bySystem.get(it.system)!.clean!;
    c.n++;
    if (it.correct) c.correct++;
  }
  for (const s of run.systems) s.clean!.accuracy = s.clean!.n > 0 ? s.clean!.correct / s.clean!.n : 0;
  return { flagged: flaggedCount, unknown };
}
