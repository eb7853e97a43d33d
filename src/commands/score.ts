import { dirname, join } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { bundledSpider } from '../benchmark/bundled.js';
import { checkFlagTasks, readErrorFlags } from '../benchmark/error-flags.js';
import { writeItems } from '../benchmark/items.js';
import { loadBenchmark } from '../benchmark/load-questions.js';
import { loadPredictions } from '../benchmark/load-predictions.js';
import type { RepairName } from '../benchmark/repairs.js';
import { parseSystemSpecs } from '../benchmark/system-specs.js';
import type { Benchmark, PredictionSet } from '../benchmark/types.js';
import { UserError } from '../errors.js';
import { DEFAULT_MAX_MEMORY_MB, DEFAULT_MAX_RESULT_BYTES, ExecutionEngine, MAX_RESULT_BYTES } from '../execution/engine.js';
import { addCleanSubset, comparatorSql, type ComparatorName } from '../execution/ex-run.js';
import { runPreviews, type RunPreviews } from '../execution/run-previews.js';
import { scoreExplorer } from '../report/explorer-score.js';
import { defaultMetrics, parseMetrics } from '../execution/score-metrics.js';
import { runScore, type ScoreRun } from '../execution/score-run.js';
import { emInputs } from '../execution/em-inputs.js';
import { atLeast } from '../api/option-checks.js';
import { emitReport, type ReportOptions } from '../report/output.js';
import { addReportOptions, checkOutputs } from './report-options.js';
import { FAIL_UNDER_DESCRIBE, parseFailUnder, unmetGates } from '../report/fail-under.js';
import { finishRun } from './outcome.js';
import { withoutUnusableDatabases, type SkippedDatabase } from '../execution/skip-databases.js';
import { byDatabaseSection, itemMetricFields } from '../report/by-database-report.js';
import { breakdownByDatabase } from '../stats/by-database.js';
import { scoreJson, scoreReport } from '../report/score-report.js';
import { loadNotes } from '../report/load-notes.js';
import { terminalProgress } from './progress.js';
import { stopCleanlyOnSignals } from './interrupt.js';
import { DEFAULT_STORE, openRunStore } from '../store/run-store.js';
import { VERBS } from './verbs.js';
import { addRepairOption } from './repair-option.js';

interface ScoreArgs extends ReportOptions {
  repair?: RepairName[];
  questions?: string;
  dbRoot?: string;
  system?: string[];
  comparator?: string;
  timeout: number;
  maxRows: number;
  maxResultBytes: number;
  maxMemoryMb: number;
  keepDistinct: boolean;
  store: string;
  items?: string;
  workers?: number;
  flags?: string;
  failUnder?: string[];
  by?: string;
  skipMissingDb: boolean;
  metric?: string[];
  tables?: string;
  vesReps: number;
}

/** What `score --fail-under` can gate, per system. */
const SCORE_GATES = {
  ex: 'execution accuracy',
  clean: 'EX on the clean subset; needs --flags or the bundled data',
  'soft-f1': 'mean Soft-F1; needs --metric soft-f1 (default for BIRD)',
  em: 'exact match; needs --metric em (default for Spider)',
  ves: 'VES; needs --metric ves',
  'r-ves': 'R-VES; needs --metric r-ves',
};

export const scoreCommand: CommandModule<object, ScoreArgs> = {
  ...VERBS.score,
  builder: (y: Argv) =>
    addReportOptions(
      addRepairOption(y)
        .option('questions', { type: 'string', describe: 'Questions file, BIRD or Spider format (default: bundled Spider dev)' })
        .option('db-root', { type: 'string', describe: 'Directory holding <db_id>/<db_id>.sqlite' })
        .option('system', { type: 'string', array: true, describe: 'NAME=FILE predictions (repeatable; default: the bundled systems)' })
        .option('comparator', { choices: ['bird', 'spider'], describe: 'Official comparator (default: bird for BIRD questions, spider for Spider)' })
        .option('timeout', { type: 'number', default: 30, describe: 'Per-query time limit in seconds' })
        .option('max-rows', { type: 'number', default: 1_000_000, describe: 'Larger results are an execution error' })
        .option('max-result-bytes', {
          type: 'number',
          default: DEFAULT_MAX_RESULT_BYTES,
          describe: `Larger results are an execution error (a character or blob byte counts 1, a cell 8 more; at most ${MAX_RESULT_BYTES})`,
        })
        .option('max-memory-mb', { type: 'number', default: DEFAULT_MAX_MEMORY_MB, describe: 'Memory cap per execution process (MiB); a query past it is an execution error' })
        .option('keep-distinct', { type: 'boolean', default: false, describe: 'spider comparator: keep DISTINCT (test-suite --keep_distinct)' })
        .option('store', { type: 'string', default: DEFAULT_STORE, describe: 'Run store (SQLite) that makes runs resumable' })
        .option('items', { type: 'string', describe: 'Write one JSON line per (system, task) to this file' })
        .option('flags', {
          type: 'string',
          describe: 'Gold-error flags CSV (task_id,predicted_label; 0 = wrong gold): adds accuracy on the clean subset (default with the bundled data: its audit flags)',
        })
        .option('workers', { type: 'number', describe: 'Parallel execution processes (default: one per core)' })
        .option('skip-missing-db', { type: 'boolean', default: false, describe: 'Score the tasks whose database can be used and list the skipped ones (exit 3), instead of stopping' })
        .option('by', { choices: ['db'], describe: 'Also break the scores down per database (table, --json byDb, CSV, Markdown, HTML)' })
        .option('fail-under', { type: 'string', array: true, describe: `${FAIL_UNDER_DESCRIBE}; metrics: ex, clean, soft-f1, em, ves, r-ves` })
        .option('metric', {
          type: 'string',
          array: true,
          describe: 'Metrics, comma-separated: ex, soft-f1, em, ves, r-ves (default: ex,soft-f1 for BIRD questions, ex,em for Spider; ves and r-ves are slow, opt-in)',
        })
        .option('tables', { type: 'string', describe: "Spider tables.json for em's foreign-key maps (default: tables.json beside the questions)" })
        .option('ves-reps', { type: 'number', default: 100, describe: 'ves / r-ves: timed executions of each query (official: 100)' }),
    ) as unknown as Argv<ScoreArgs>,
  handler: async (argv) => {
    const bundled = argv.questions === undefined ? bundledSpider() : undefined;
    const questions = argv.questions ?? bundled!.questions;
    const dbRoot = argv.dbRoot ?? bundled?.dbRoot;
    if (!dbRoot) throw new UserError('--db-root is required with --questions (the directory holding <db_id>/<db_id>.sqlite)');
    // A bundled system's manifest may turn on a repair its file needs; the notes say so.
    const specs = argv.system
      ? parseSystemSpecs(argv.system).map(([name, file]) => ({ name, file, repairs: [] as RepairName[] }))
      : bundled?.systems.map((s) => ({ name: s.name, file: s.file, repairs: s.repairs ?? [] }));
    if (!specs || specs.length === 0) throw new UserError('name at least one --system NAME=FILE');
    const flagsFile = argv.flags ?? bundled?.flags;
    checkOutputs(argv, {
      inputs: {
        '--questions': questions,
        '--db-root': dbRoot,
        '--system': specs.map((s) => s.file),
        '--flags': flagsFile,
        '--tables': argv.tables ?? join(dirname(questions), 'tables.json'),
        '--store': argv.store,
      },
      outputs: { '--items': argv.items, '--store': argv.store },
    });
    const flags = flagsFile ? readErrorFlags(flagsFile) : undefined;
    const gates = parseFailUnder(argv.failUnder, SCORE_GATES);
    if (!flags && gates.some((g) => g.metric === 'clean')) throw new UserError('--fail-under clean=... needs --flags FILE (the clean subset is the unflagged tasks)');
    const store = openRunStore(argv.store);
    // The execution processes boot while the files are read.
    const engine = new ExecutionEngine({
      dbRoot,
      timeoutSec: argv.timeout,
      maxRows: argv.maxRows,
      maxResultBytes: argv.maxResultBytes,
      maxMemoryMb: argv.maxMemoryMb,
      store,
      ...(argv.workers !== undefined ? { workers: argv.workers } : {}),
    });
    const release = stopCleanlyOnSignals({ store: argv.store, stopNow: () => (engine.interruptNow(), store.close()) });
    for (const note of engine.notes) process.stderr.write(`sqlboard: ${note}\n`);
    const progress = terminalProgress('executing');
    let loaded: { bench: Benchmark; systems: PredictionSet[] };
    let skipped: SkippedDatabase[] = [];
    const timing = terminalProgress('timing (VES)', process.stderr, { kept: false });
    let run: ScoreRun;
    /** The tasks scored (without skipped databases) and their result previews, for --html's explorer. */
    let previews: RunPreviews | undefined;
    let scored: Benchmark | undefined;
    const notes: string[] = [];
    let flagCheck: ReturnType<typeof checkFlagTasks> | undefined;
    try {
      const full = loadBenchmark(questions);
      loaded = { bench: full, systems: specs.map((s) => loadPredictions(s.file, full, s.name, { repairs: [...(argv.repair ?? []), ...s.repairs] })) };
      // Predictions are lined up with every task first, so a file that does not match the questions is still an error.
      const comparator = (argv.comparator as ComparatorName | undefined) ?? (full.format === 'bird' ? 'bird' : 'spider');
      const { bench, skipped: left } = argv.skipMissingDb ? withoutUnusableDatabases(full, engine, comparator === 'spider') : { bench: full, skipped: [] };
      skipped = left;
      if (argv.keepDistinct && comparator === 'bird') {
        throw new UserError('--keep-distinct is an option of the spider comparator; the bird comparator (the default for BIRD questions) compares result sets and would ignore it');
      }
      flagCheck = flags ? checkFlagTasks(flagsFile!, flags, full.tasks.map((t) => t.id), `the questions ${questions}`) : undefined;
      if (flagCheck?.note) process.stderr.write(`sqlboard: ${flagCheck.note}\n`);
      const metrics = argv.metric ? parseMetrics(argv.metric) : defaultMetrics(bench.format);
      if (!metrics.includes('ex')) metrics.unshift('ex');
      const em = metrics.includes('em') ? emInputs(questions, dbRoot, argv.tables, argv.metric !== undefined) : undefined;
      if (metrics.includes('em') && !em) {
        metrics.splice(metrics.indexOf('em'), 1);
        notes.push(`exact match (em) left out: no tables.json beside ${questions}; pass --tables FILE to add it\n`);
      }
      const wantsVes = metrics.includes('ves') || metrics.includes('r-ves');
      if (wantsVes) atLeast('ves-reps', argv.vesReps, 2);
      const ves = wantsVes ? { reps: argv.vesReps, timeoutSec: argv.timeout, maxRows: argv.maxRows, dbPath: (db: string) => engine.dbPath(db) } : undefined;
      run = await runScore(bench, loaded.systems, engine, { comparator, keepDistinct: argv.keepDistinct, metrics, ...(em ? { em } : {}), ...(ves ? { ves } : {}) }, {
        execute: (d, t) => progress.update(d, t),
        time: (d, t) => timing.update(d, t),
      });
      // The explorer's result previews come from the run store, which closes below.
      scored = bench;
      if (argv.html !== undefined) previews = await runPreviews(engine, bench, loaded.systems, comparatorSql(comparator, argv.keepDistinct));
    } finally {
      release();
      progress.stop();
      timing.stop();
      await engine.close();
      store.close();
    }
    for (const n of notes) process.stderr.write(n);
    if (argv.items) writeItems(argv.items, run.items);
    const flagInfo = flags ? { file: flagsFile!, ...addCleanSubset(run, flags), unused: flagCheck?.unused ?? 0 } : undefined;
    for (const line of loadNotes(questions, loaded.bench, loaded.systems)) process.stderr.write(line);
    const report = scoreReport(run, questions, flagInfo);
    if (argv.html !== undefined) {
      report.explorer = scoreExplorer(
        {
          bench: scored!,
          systems: loaded.systems.map((s) => ({ name: s.system, sql: (id) => s.byTask.get(id)?.sql })),
          items: run.items,
          ...(previews ? { previews } : {}),
          ...(flags ? { flags } : {}),
        },
        run.comparator,
      );
    }
    const json = scoreJson(run, questions, flagInfo);
    if (skipped.length) {
      const tasks = skipped.reduce((k, d) => k + d.tasks, 0);
      report.sections[0]!.notes!.unshift(`--skip-missing-db: ${tasks} tasks on ${skipped.length} unusable databases were not scored (${skipped.map((d) => d.dbId).join(', ')}).`);
      Object.assign(json, { skippedDatabases: skipped });
    }
    if (argv.by === 'db') {
      const ranked = [...run.systems].sort((a, b) => b.accuracy - a.accuracy).map((s) => s.name);
      const { fields, labels } = itemMetricFields(run.items);
      const byDb = breakdownByDatabase(run.items, ranked, fields);
      report.sections.push(byDatabaseSection(byDb, 'EX', labels));
      Object.assign(json, { byDb });
    }
    emitReport(report, json, argv);
    const gated = run.systems.map((s) => ({
      name: s.name,
      metrics: { ex: s.accuracy, clean: s.clean?.accuracy, ...Object.fromEntries(Object.entries(s.metrics).map(([m, v]) => [m, v.mean])) },
    }));
    finishRun({ partial: skipped.map((d) => `skipped database ${d.dbId} (${d.tasks} tasks): ${d.problem}`), belowThreshold: unmetGates(gates, gated) });
  },
};
