import type { RepairCounts } from '../benchmark/repairs.js';
import type { Benchmark, ItemRecord, PredictionSet, Task } from '../benchmark/types.js';
import { spiderHardness } from '../sql/spider-hardness.js';
import { birdEqual, birdView } from './compare-bird.js';
import { spiderEqual, spiderExecutedSql, spiderOrderMatters } from './compare-spider.js';
import { type ExecutionEngine, type EngineStats } from './engine.js';
import { runPairs, type ResultPair } from './result-pairs.js';
import { mapInSlices } from './in-slices.js';
import { softF1 } from './soft-f1.js';
import type { PartialType } from '../sql/spider-exact.js';
import type { VesSpread } from './ves.js';
import { meanScore, type ContinuousMetric, type MeanScore } from './metric-means.js';
import type { ExecRequest, ExecResult } from './types.js';

export type ComparatorName = 'bird' | 'spider';

export interface ExOptions {
  comparator: ComparatorName;
  /** spider comparator only: compare with DISTINCT kept (test-suite's --keep_distinct). */
  keepDistinct?: boolean;
  /** Also compute BIRD's Soft-F1 per item (items get `softF1`). */
  softF1?: boolean;
  /**
   * Keep every result's rows in the run store (for previews of what ran) even when the comparison
   * needs only row sets; without it a `bird` run keeps digests only.
   */
  keepRows?: boolean;
  /** Spider hardness levels kept from earlier runs (the run store's HardnessStore). */
  hardness?: HardnessCache;
  /**
   * Called once every query has its result, before the items are built: the caller can stop the
   * execution processes then, so that their exit overlaps this process's last work.
   */
  onExecuted?: () => void;
}

/** Spider hardness levels by gold SQL text, kept between runs. */
export interface HardnessCache {
  /** The kept level of each text that has one. */
  lookup(sqls: readonly string[]): Map<string, string>;
  save(levels: Map<string, string>): void;
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
  /** Predictions that failed to execute, timeouts not included (they are counted in `timeouts`). */
  execErrors: number;
  timeouts: number;
  missing: number;
  /** Tasks whose gold failed (they count wrong for everyone, as in the official evaluators). */
  goldErrors: number;
  byDifficulty: Record<string, DifficultyScore>;
  /** Accuracy on the tasks whose gold is not flagged as wrong (with `--flags`), overall and by difficulty. */
  clean?: DifficultyScore & { byDifficulty: Record<string, DifficultyScore> };
  /** Means of the continuous metrics asked for (Soft-F1, EM, VES, R-VES), by their names. */
  metrics: Partial<Record<ContinuousMetric, MeanScore>>;
  /** With EM: the official printed partial scores per component, and predictions its parser rejected. */
  emPartial?: Record<PartialType, { acc: number; rec: number; f1: number }>;
  emUnparsed?: number;
  /** With VES/R-VES: how the timing went (repetitions, spread, failures). */
  vesSpread?: VesSpread;
  notes: string[];
  /** Predictions changed by each opt-in repair that was on (none: the text as given, as officially). */
  repairs: RepairCounts;
}

export interface ExRun {
  comparator: ComparatorName;
  keepDistinct: boolean;
  tasks: number;
  /**
   * spider: the databases whose folder holds more than one `.sqlite` file (test-suite-sql-eval's
   * distilled databases), with the count; absent when there are none.
   */
  testSuiteDatabases?: { dbId: string; files: number }[];
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

/**
 * Every task's difficulty, in slices (this runs while the queries do). With a cache, Spider
 * hardness is computed only for the gold texts it does not hold, and those are kept.
 */
async function taskDifficulties(bench: Benchmark, cache: HardnessCache | undefined): Promise<string[]> {
  if (!cache || bench.format !== 'spider') return mapInSlices(bench.tasks, (t) => taskDifficulty(bench, t));
  const kept = cache.lookup([...new Set(bench.tasks.filter((t) => t.difficulty === undefined).map((t) => t.goldSql))]);
  const fresh = new Map<string, string>();
  const levels = await mapInSlices(bench.tasks, (t) => {
    const known = t.difficulty ?? kept.get(t.goldSql) ?? fresh.get(t.goldSql);
    if (known !== undefined) return known;
    const level = spiderHardness(t.goldSql);
    fresh.set(t.goldSql, level);
    return level;
  });
  if (fresh.size > 0) cache.save(fresh);
  return levels;
}

/** The SQL the chosen official evaluator actually executes; undefined when it scores 0 without executing. */
export function comparatorSql(comparator: ComparatorName, keepDistinct: boolean): (sql: string, isPrediction: boolean) => string | undefined {
  return comparator === 'spider' ? (sql, isPrediction) => spiderExecutedSql(sql, keepDistinct, isPrediction) : (sql) => sql;
}

function executedSql(sql: string, opts: ExOptions, isPrediction: boolean): string | undefined {
  return comparatorSql(opts.comparator, opts.keepDistinct ?? false)(sql, isPrediction);
}

/** Whether runEx needs results' rows (the spider comparison, Soft-F1, kept rows) or only their row-set digests. */
export function exNeedsRows(opts: ExOptions): boolean {
  return opts.comparator !== 'bird' || (opts.softF1 ?? false) || opts.keepRows === true;
}

/**
 * Starts what a runEx with these options will execute, before it is called (engine.prefetch): the
 * golds, or with `system` that system's predictions, each on its task's database file. While rows
 * are needed, predictions are not started early: each result would hold its rows (up to the byte
 * budget) in this process until runEx takes it.
 */
export function prefetchEx(engine: ExecutionEngine, bench: Benchmark, opts: ExOptions, system?: PredictionSet): void {
  const needRows = exNeedsRows(opts);
  if (system && needRows) return;
  const sqlOf = comparatorSql(opts.comparator, opts.keepDistinct ?? false);
  const requests: ExecRequest[] = [];
  /** Under spider, a database whose folder holds a file that is no SQLite database is an error or skipped (--skip-missing-db): none of its queries start. */
  const usable = new Map<string, boolean>();
  const folderUsable = (dbId: string): boolean => {
    let ok = usable.get(dbId);
    if (ok === undefined) {
      try {
        engine.folderFiles(dbId);
        ok = true;
      } catch {
        ok = false;
      }
      usable.set(dbId, ok);
    }
    return ok;
  };
  for (const t of bench.tasks) {
    if (opts.comparator === 'spider' && !folderUsable(t.dbId)) continue;
    const text = system ? system.byTask.get(t.id)?.sql : t.goldSql;
    const sql = text === undefined ? undefined : sqlOf(text, system !== undefined);
    if (sql !== undefined) requests.push({ dbId: t.dbId, sql });
  }
  engine.prefetch(requests, needRows);
}

const NONE: readonly string[] = [];
const NONE_INDEX: number[] = [];

/** What test-suite-sql-eval does when sqlparse finds no statement in an empty text: scores 0 without executing. */
const NO_STATEMENT: ExecResult = { status: 'error', columns: [], rows: [], error: 'no statement to execute (empty prediction)', ms: 0 };

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
  const nTasks = bench.tasks.length;
  // test-suite-sql-eval runs gold and prediction on every `.sqlite` file of the task's database
  // folder and counts the prediction correct only if it matches on all of them; BIRD uses the
  // database file alone. Per task: the other files (usually none).
  const extraFiles = bench.tasks.map((t) => (opts.comparator === 'spider' ? engine.folderFiles(t.dbId, t.id).slice(1) : NONE));
  /** Requests whose text the evaluator would not execute (NO_STATEMENT); they run as '' and count as that error. */
  const unexecuted = new Set<number>();
  // Field by field (one request per system and task): a spread built an object to copy from.
  const request = (dbId: string, sql: string | undefined, file?: string): ExecRequest => {
    const r: ExecRequest = { dbId, sql: sql ?? '' };
    if (file !== undefined) r.file = file;
    return r;
  };
  const requests: ExecRequest[] = bench.tasks.map((t, ti) => {
    const sql = executedSql(t.goldSql, opts, false);
    if (sql === undefined) unexecuted.add(ti);
    return request(t.dbId, sql);
  });
  /** Each request on the task's other files: its index (pushed after the one on the database file). */
  const onExtraFiles = (ti: number, main: number): number[] =>
    extraFiles[ti]!.length === 0 ? NONE_INDEX : extraFiles[ti]!.map((file) => requests.push({ ...requests[main]!, file }) - 1);
  const goldExtra = bench.tasks.map((_t, ti) => onExtraFiles(ti, ti));
  const predIndex: (number | undefined)[][] = systems.map((s) =>
    bench.tasks.map((t) => {
      const p = s.byTask.get(t.id);
      if (!p) return undefined;
      const sql = executedSql(p.sql, opts, true);
      if (sql === undefined) unexecuted.add(requests.length);
      requests.push(request(t.dbId, sql));
      return requests.length - 1;
    }),
  );
  const predExtra = systems.map((_s, si) => bench.tasks.map((_t, ti) => (predIndex[si]![ti] === undefined ? NONE_INDEX : onExtraFiles(ti, predIndex[si]![ti]!))));
  // Soft-F1 is BIRD's metric: it runs the SQL as written, on the database file. Under the bird comparator those are
  // EX's own executions; under spider (which rewrites DISTINCT and `value`) it needs its own.
  const wantF1 = opts.softF1 ?? false;
  const f1OwnRuns = wantF1 && opts.comparator !== 'bird';
  const f1GoldIndex = bench.tasks.map((t, ti) => (f1OwnRuns ? requests.push({ dbId: t.dbId, sql: t.goldSql }) - 1 : ti));
  const f1PredIndex = systems.map((s, si) =>
    bench.tasks.map((t, ti) => {
      const p = s.byTask.get(t.id);
      return p && f1OwnRuns ? requests.push({ dbId: t.dbId, sql: p.sql }) - 1 : predIndex[si]![ti];
    }),
  );
  // The order rules come first (a result found in the run store is compared at once); each
  // verdict is decided as soon as both its gold and its prediction results exist.
  const orderMatters = bench.tasks.map((t) => opts.comparator === 'spider' && spiderOrderMatters(t.goldSql, keepDistinct));
  const levels = LEVELS[bench.format];
  /** Per system and task: on how many of the task's files the prediction matched the gold. */
  const matched = systems.map(() => new Uint16Array(nTasks));
  const f1 = systems.map(() => new Array<number>(nTasks).fill(0));
  const pairs: ResultPair[] = [];
  const counts: PairCounts = { comparator: opts.comparator, orderMatters, matched, f1 };
  const f1Here = wantF1 && !f1OwnRuns;
  systems.forEach((_, si) =>
    bench.tasks.forEach((_t, ti) => {
      const pi = predIndex[si]![ti];
      if (pi === undefined) return;
      // A text the evaluator does not execute never matches, on any file.
      if (unexecuted.has(ti) || unexecuted.has(pi)) return;
      pairs.push(new ItemPair(ti, pi, counts, si, ti, f1Here ? 'match+f1' : 'match'));
      goldExtra[ti]!.forEach((gi, k) => pairs.push(new ItemPair(gi, predExtra[si]![ti]![k]!, counts, si, ti, 'match')));
      if (f1OwnRuns) pairs.push(new ItemPair(f1GoldIndex[ti]!, f1PredIndex[si]![ti]!, counts, si, ti, 'f1'));
    }),
  );
  // The bird comparison needs only each result's row set, computed where the rows are produced;
  // the spider comparison and soft-F1 need the rows.
  const running = runPairs(engine, requests, pairs, onProgress, { needRows: exNeedsRows(opts) });
  // Failing while the difficulties are found is reported by the await below, not as unhandled.
  running.catch(() => {});
  // The queries are out; the difficulties (Spider's hardness parses every gold) are found while they run.
  const difficulties = await taskDifficulties(bench, opts.hardness);
  const results = await running;
  // Nothing more to execute: the caller may stop the execution processes while the items are built.
  opts.onExecuted?.();
  // As the comparator's evaluator fetches results: BIRD's strict decoding makes undecodable TEXT an error.
  const view = opts.comparator === 'bird' ? birdView : (r: ExecResult): ExecResult => r;
  /** The result to report for a query run on every file of a task: the first that failed, else the database file's. */
  const reported = (main: ExecResult, extra: number[]): ExecResult => {
    if (main.status !== 'ok') return view(main);
    for (const i of extra) if (results[i]!.status !== 'ok') return results[i]!;
    return view(main);
  };
  // Each task's gold as reported, once for every system.
  const golds = bench.tasks.map((_t, ti) => (unexecuted.has(ti) ? NO_STATEMENT : reported(results[ti]!, goldExtra[ti]!)));

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
      metrics: {},
      notes: [...(s.notes ?? [])],
      repairs: { ...(s.repairs ?? {}) },
    };
    const first = items.length;
    bench.tasks.forEach((task, ti) => {
      const g = golds[ti]!;
      const idx = predIndex[si]![ti];
      const p: ExecResult | undefined =
        idx === undefined ? undefined : unexecuted.has(idx) ? NO_STATEMENT : reported(results[idx]!, predExtra[si]![ti]!);
      const correct = p !== undefined && matched[si]![ti] === 1 + extraFiles[ti]!.length;
      const level = difficulties[ti]!;
      const bucket = (score.byDifficulty[level] ??= { n: 0, correct: 0, accuracy: 0 });
      bucket.n++;
      if (correct) {
        score.correct++;
        bucket.correct++;
      }
      if (p === undefined) score.missing++;
      else if (p.status === 'error') score.execErrors++;
      if (p?.status === 'timeout') score.timeouts++;
      if (g.status !== 'ok') score.goldErrors++;
      // Fields set one by one, in the order the report and --items write them (no spread objects: one item per system and task).
      const item: ItemRecord = { system: s.system, taskId: task.id, dbId: task.dbId, correct, difficulty: level };
      if (p === undefined) item.missing = true;
      else if (p.status !== 'ok') item.predError = p.error ?? p.status;
      if (g.status !== 'ok') item.goldError = g.error ?? g.status;
      if (p?.status === 'timeout') item.timedOut = true;
      if (wantF1) item.softF1 = p === undefined ? 0 : f1[si]![ti]!;
      items.push(item);
    });
    score.accuracy = score.n > 0 ? score.correct / score.n : 0;
    if (wantF1) score.metrics['soft-f1'] = meanScore(items.slice(first), 'soft-f1', levels);
    for (const b of Object.values(score.byDifficulty)) b.accuracy = b.n > 0 ? b.correct / b.n : 0;
    return score;
  });
  return {
    comparator: opts.comparator,
    keepDistinct,
    tasks: bench.tasks.length,
    ...testSuiteDatabases(bench, extraFiles),
    // The format's levels, then any other level the questions file uses.
    difficultyLevels: [...new Set([...levels, ...difficulties])],
    systems: scores,
    items,
    execution: { ...engine.stats },
  };
}

function testSuiteDatabases(bench: Benchmark, extraFiles: readonly (readonly string[])[]): Pick<ExRun, 'testSuiteDatabases'> {
  const files = new Map<string, number>();
  bench.tasks.forEach((t, ti) => extraFiles[ti]!.length > 0 && files.set(t.dbId, 1 + extraFiles[ti]!.length));
  return files.size > 0 ? { testSuiteDatabases: [...files].sort().map(([dbId, n]) => ({ dbId, files: n })) } : {};
}

/** Where the pairs of one run count what they find: matches per system and task (on how many files), and Soft-F1. */
interface PairCounts {
  comparator: ComparatorName;
  orderMatters: readonly boolean[];
  matched: Uint16Array[];
  f1: number[][];
}

/**
 * One (system, task) comparison on one file: a match counts in `matched`; with Soft-F1 the
 * database file's pair (or, under spider, the pair of the SQL as written) sets the item's score.
 * A class rather than closures: a run builds one per system and task.
 */
class ItemPair implements ResultPair {
  constructor(
    readonly gold: number,
    readonly pred: number,
    private readonly counts: PairCounts,
    private readonly system: number,
    private readonly task: number,
    private readonly what: 'match' | 'match+f1' | 'f1',
  ) {}

  onBoth(g: ExecResult, p: ExecResult): void {
    const { counts, system, task } = this;
    if (this.what !== 'f1' && compare(counts.comparator, g, p, counts.orderMatters[task]!)) counts.matched[system]![task]!++;
    if (this.what !== 'match') counts.f1[system]![task] = softF1(g, p);
  }
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
  for (const s of run.systems) s.clean = { n: 0, correct: 0, accuracy: 0, byDifficulty: {} };
  const bySystem = new Map(run.systems.map((s) => [s.name, s]));
  for (const it of run.items) {
    if (byTask.get(it.taskId)) continue;
    const c = bySystem.get(it.system)!.clean!;
    const d = (c.byDifficulty[it.difficulty ?? 'unknown'] ??= { n: 0, correct: 0, accuracy: 0 });
    c.n++;
    d.n++;
    if (it.correct) {
      c.correct++;
      d.correct++;
    }
  }
  const rate = (b: DifficultyScore): void => {
    b.accuracy = b.n > 0 ? b.correct / b.n : 0;
  };
  for (const s of run.systems) {
    rate(s.clean!);
    Object.values(s.clean!.byDifficulty).forEach(rate);
  }
  return { flagged: flaggedCount, unknown };
}
