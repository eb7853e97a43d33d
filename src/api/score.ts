import { bundledSpider } from '../benchmark/bundled.js';
import { checkFlagTasks, readErrorFlags, readFlagScores } from '../benchmark/error-flags.js';
import { writeItems } from '../benchmark/items.js';
import { loadBenchmark } from '../benchmark/load-questions.js';
import { loadPredictions } from '../benchmark/load-predictions.js';
import type { RepairName } from '../benchmark/repairs.js';
import { parseSystemSpecs } from '../benchmark/system-specs.js';
import type { Benchmark, PredictionSet } from '../benchmark/types.js';
import { UserError } from '../errors.js';
import { ExecutionEngine } from '../execution/engine.js';
import { addCleanSubset, comparatorSql, prefetchEx, type ExOptions } from '../execution/ex-run.js';
import { runPreviews, type RunPreviews } from '../execution/run-previews.js';
import { scoreExplorer } from '../report/explorer-score.js';
import { emInputs } from '../execution/em-inputs.js';
import { defaultMetrics, parseMetrics, softF1Asked } from '../execution/score-metrics.js';
import { runScore, type ScoreRun } from '../execution/score-run.js';
import { onlyDatabases, requireUsableDatabases, withoutUnusableDatabases, type SkippedDatabase } from '../execution/skip-databases.js';
import { byDatabaseSection, itemMetricFields } from '../report/by-database-report.js';
import { loadNotes } from '../report/load-notes.js';
import { scoreJson, scoreReport } from '../report/score-report.js';
import { breakdownByDatabase } from '../stats/by-database.js';
import { openRunStore } from '../store/run-store.js';
import { EmStore } from '../execution/em-store.js';
import { HardnessStore } from '../execution/hardness-store.js';
import { atLeast } from './option-checks.js';
import { withProvenance, writeMetaBeside } from './provenance.js';
import { resolveOptions, type OptionValues } from './option-table.js';
import type { GatedResult, RunHooks } from './types.js';
import { SCORE_OPTIONS } from './score-options.js';

export type ScoreOptions = OptionValues<typeof SCORE_OPTIONS> &
  RunHooks & {
    /** Add the per-item explorer (results, SQL, verdicts) to the report, for its HTML page. */
    explorer?: boolean;
  };

/** What `score` resolved from its options (the bundled default filled in), for callers that check before the work. */
export interface ScoreInputs {
  questions: string;
  dbRoot: string;
  specs: { name: string; file: string; repairs: RepairName[] }[];
  flagsFile?: string;
}

/** The questions, databases, systems and flags a score run uses: the bundled default when no questions are given. */
export function scoreInputs(opts: Pick<ScoreOptions, 'questions' | 'dbRoot' | 'system' | 'flags'>): ScoreInputs {
  const bundled = opts.questions === undefined ? bundledSpider() : undefined;
  const questions = opts.questions ?? bundled!.questions;
  const dbRoot = opts.dbRoot ?? bundled?.dbRoot;
  if (!dbRoot) throw new UserError('--db-root is required with --questions (the directory holding <db_id>/<db_id>.sqlite)');
  // A bundled system's manifest may turn on a repair its file needs; the notes say so.
  const specs = opts.system
    ? parseSystemSpecs(opts.system).map(([name, file]) => ({ name, file, repairs: [] as RepairName[] }))
    : bundled?.systems.map((s) => ({ name: s.name, file: s.file, repairs: s.repairs ?? [] }));
  if (!specs || specs.length === 0) throw new UserError('name at least one --system NAME=FILE');
  const flagsFile = opts.flags ?? bundled?.flags;
  return { questions, dbRoot, specs, ...(flagsFile ? { flagsFile } : {}) };
}

/** EX (and Soft-F1, EM, VES, R-VES) per system as the official evaluators define them (`sqlboard score`). */
export async function score(opts: ScoreOptions): Promise<GatedResult> {
  const started = new Date();
  const { questions, dbRoot, specs, flagsFile } = scoreInputs(opts);
  const flags = flagsFile ? readErrorFlags(flagsFile) : undefined;
  const o = resolveOptions(SCORE_OPTIONS, opts);
  const { timeout, maxRows, keepDistinct } = o;
  const store = openRunStore(o.store);
  // The execution processes boot while the files are read.
  const engine = new ExecutionEngine({
    dbRoot,
    timeoutSec: timeout,
    maxRows,
    maxResultBytes: o.maxResultBytes,
    maxMemoryMb: o.maxMemoryMb,
    store,
    ...(opts.workers !== undefined ? { workers: opts.workers } : {}),
    ...(opts.sqliteCompat !== undefined ? { sqliteCompat: opts.sqliteCompat } : {}),
  });
  const notes: string[] = [...engine.notes];
  // Notes the engine adds while it runs (a database reached through a link outside --db-root) follow.
  const engineNotesBefore = engine.notes.length;
  const release = opts.onStoppable?.(() => (engine.interruptNow(), store.close())) ?? (() => {});
  let loaded: { bench: Benchmark; systems: PredictionSet[] };
  let skipped: SkippedDatabase[] = [];
  let selected: Benchmark | undefined;
  let run: ScoreRun;
  let flagCheck: ReturnType<typeof checkFlagTasks> | undefined;
  /** The tasks scored (without skipped databases) and their result previews, for the explorer. */
  let previews: RunPreviews | undefined;
  let scored: Benchmark | undefined;
  let databases: Record<string, string>;
  try {
    const full = loadBenchmark(questions);
    const comparator = opts.comparator ?? (full.format === 'bird' ? 'bird' : 'spider');
    // The golds start executing now and each system's predictions as soon as its file is read, so the
    // execution processes work while the files load. The options are runScore's below; should they
    // differ, runEx executes what it needs itself (prefetched results are only ever reused, never trusted).
    // The explorer previews what each query returned: the run store must keep the rows.
    const keepRows = opts.explorer === true;
    const early: ExOptions = { comparator, keepDistinct, softF1: softF1Asked(opts.metric, full.format), keepRows };
    // The tasks scored: those of the databases --db names, without those whose database cannot be
    // used (--skip-missing-db; otherwise such a database stops the run here, before any work).
    selected = opts.db ? onlyDatabases(full, opts.db) : full;
    let bench = selected;
    if (opts.skipMissingDb) ({ bench, skipped } = withoutUnusableDatabases(selected, engine, comparator === 'spider'));
    else requireUsableDatabases(selected, engine, comparator === 'spider');
    prefetchEx(engine, bench, early);
    // The loaders' notes (predictions that are no statement, TABs) count the scored tasks only.
    const counted = bench === full ? undefined : new Set(bench.tasks.map((t) => t.id));
    const systems: PredictionSet[] = [];
    for (const s of specs) {
      // The pool hands out work and hears answers only from the event loop: without this turn the
      // execution processes got their first batches and then waited for every file to be read.
      await turnOfEventLoop();
      // Predictions are lined up with every task, so a file that does not match the questions is still an error.
      const set = loadPredictions(s.file, full, s.name, { repairs: [...(opts.repair ?? []), ...s.repairs], ...(counted ? { counted } : {}) });
      prefetchEx(engine, bench, early, set);
      systems.push(set);
    }
    loaded = { bench: full, systems };
    if (keepDistinct && comparator === 'bird') {
      throw new UserError('--keep-distinct is an option of the spider comparator; the bird comparator (the default for BIRD questions) compares result sets and would ignore it');
    }
    flagCheck = flags ? checkFlagTasks(flagsFile!, flags, full.tasks.map((t) => t.id), `the questions ${questions}`) : undefined;
    if (flagCheck?.note) notes.push(flagCheck.note);
    const metrics = opts.metric ? parseMetrics(opts.metric) : defaultMetrics(bench.format);
    if (!metrics.includes('ex')) metrics.unshift('ex');
    const em = metrics.includes('em') ? emInputs(questions, dbRoot, opts.tables, opts.metric !== undefined) : undefined;
    // Exact-match results are kept in the run store: a re-run parses nothing again.
    if (em) em.cache = new EmStore(store);
    if (metrics.includes('em') && !em) {
      metrics.splice(metrics.indexOf('em'), 1);
      notes.push(`exact match (em) left out: no tables.json beside ${questions}; pass --tables FILE to add it`);
    }
    const wantsVes = metrics.includes('ves') || metrics.includes('r-ves');
    const vesReps = o.vesReps;
    if (wantsVes) atLeast('ves-reps', vesReps, 2);
    const ves = wantsVes ? { reps: vesReps, timeoutSec: timeout, maxRows, dbPath: (db: string) => engine.dbPath(db), ...(engine.compat ? { compat: engine.compat } : {}) } : undefined;
    // Spider hardness levels too: a re-run parses no gold for them.
    const hardness = new HardnessStore(store);
    run = await runScore(bench, loaded.systems, engine, { comparator, keepDistinct, metrics, keepRows, hardness, ...(em ? { em } : {}), ...(ves ? { ves } : {}) }, {
      execute: (d, t) => opts.onProgress?.('executing', d, t),
      time: (d, t) => opts.onProgress?.('timing (VES)', d, t),
    });
      // The explorer's result previews come from the run store, which closes below.
      scored = bench;
      if (opts.explorer) previews = await runPreviews(engine, bench, loaded.systems, comparatorSql(comparator, keepDistinct));
    databases = await engine.databaseHashes();
  } finally {
    release();
    await engine.close();
    store.close();
  }
  if (opts.items) writeItems(opts.items, run.items);
  const flagInfo = flags ? { file: flagsFile!, ...addCleanSubset(run, flags), unused: flagCheck?.unused ?? 0 } : undefined;
  notes.push(...engine.notes.slice(engineNotesBefore), ...loadNotes(questions, loaded.bench, loaded.systems));
  const report = scoreReport(run, questions, flagInfo);
  if (opts.explorer) {
    report.explorer = scoreExplorer(
      {
        bench: scored!,
        systems: loaded.systems.map((s) => ({ name: s.system, sql: (id) => s.byTask.get(id)?.sql })),
        items: run.items,
        ...(previews ? { previews } : {}),
        ...(flags ? { flags, reviewScores: readFlagScores(flagsFile!) } : {}),
      },
      run.comparator,
    );
  }
  const json = scoreJson(run, questions, flagInfo);
  if (opts.db && selected) {
    const dbs = [...new Set(selected.tasks.map((t) => t.dbId))];
    report.sections[0]!.notes!.unshift(`--db: the ${selected.tasks.length} of ${loaded.bench.tasks.length} tasks on ${dbs.length === 1 ? 'database' : 'databases'} ${dbs.join(', ')}.`);
  }
  if (skipped.length) {
    const tasks = skipped.reduce((k, d) => k + d.tasks, 0);
    report.sections[0]!.notes!.unshift(`--skip-missing-db: ${tasks} tasks on ${skipped.length} unusable databases were not scored (${skipped.map((d) => d.dbId).join(', ')}).`);
    Object.assign(json, { skippedDatabases: skipped });
  }
  if (opts.by === 'db') {
    const ranked = [...run.systems].sort((a, b) => b.accuracy - a.accuracy).map((s) => s.name);
    const { fields, labels } = itemMetricFields(run.items);
    const byDb = breakdownByDatabase(run.items, ranked, fields);
    report.sections.push(byDatabaseSection(byDb, 'EX', labels));
    Object.assign(json, { byDb });
  }
  const result = withProvenance({
    report,
    json: json as unknown as Record<string, unknown>,
    notes,
    metrics: run.systems.map((s) => ({
      name: s.name,
      metrics: { ex: s.accuracy, clean: s.clean?.accuracy, ...Object.fromEntries(Object.entries(s.metrics).map(([m, v]) => [m, v.mean])) },
    })),
    partial: skipped.map((d) => `skipped database ${d.dbId} (${d.tasks} tasks): ${d.problem}`),
  }, { command: 'score', options: opts, started, databases, sqlite: engine.sqlite });
  if (opts.items) writeMetaBeside('--items', opts.items, result);
  return result;
}

const turnOfEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
