import type { Argv, CommandModule } from 'yargs';
import { bundledSpider } from '../benchmark/bundled.js';
import { readErrorFlags } from '../benchmark/error-flags.js';
import { writeItems } from '../benchmark/items.js';
import { loadBenchmark } from '../benchmark/load-questions.js';
import { loadPredictions } from '../benchmark/load-predictions.js';
import { UserError } from '../errors.js';
import { ExecutionEngine } from '../execution/engine.js';
import { addCleanSubset, runEx, type ComparatorName, type ExRun } from '../execution/ex-run.js';
import type { Column, Report } from '../report/model.js';
import { addReportOptions, emitReport, type ReportOptions } from '../report/output.js';
import { terminalProgress } from '../report/progress.js';
import { wilson } from '../stats/intervals.js';
import { DEFAULT_STORE, openRunStore } from '../store/run-store.js';

interface ScoreArgs extends ReportOptions {
  questions?: string;
  dbRoot?: string;
  system?: string[];
  comparator?: string;
  timeout: number;
  maxRows: number;
  keepDistinct: boolean;
  store: string;
  items?: string;
  workers?: number;
  flags?: string;
}

/** NAME=FILE → [name, file]; a bare FILE is named after its file name. */
export function parseSystemArg(arg: string): [string, string] {
  const eq = arg.indexOf('=');
  if (eq > 0) return [arg.slice(0, eq), arg.slice(eq + 1)];
  const base = arg.split(/[\\/]/).pop() ?? arg;
  return [base.replace(/\.[^.]+$/, ''), arg];
}

export const scoreCommand: CommandModule<object, ScoreArgs> = {
  command: 'score',
  describe: 'Execution accuracy as the official BIRD / Spider evaluators compute it (default: the bundled Spider dev set and systems)',
  builder: (y: Argv) =>
    addReportOptions(
      y
        .option('questions', { type: 'string', describe: 'Questions file, BIRD or Spider format (default: bundled Spider dev)' })
        .option('db-root', { type: 'string', describe: 'Directory holding <db_id>/<db_id>.sqlite' })
        .option('system', { type: 'string', array: true, describe: 'NAME=FILE predictions (repeatable; default: the bundled systems)' })
        .option('comparator', { choices: ['bird', 'spider'], describe: 'Official comparator (default: bird for BIRD questions, spider for Spider)' })
        .option('timeout', { type: 'number', default: 30, describe: 'Per-query time limit in seconds' })
        .option('max-rows', { type: 'number', default: 1_000_000, describe: 'Larger results are an execution error' })
        .option('keep-distinct', { type: 'boolean', default: false, describe: 'spider comparator: keep DISTINCT (test-suite --keep_distinct)' })
        .option('store', { type: 'string', default: DEFAULT_STORE, describe: 'Run store (SQLite) that makes runs resumable' })
        .option('items', { type: 'string', describe: 'Write one JSON line per (system, task) to this file' })
        .option('flags', {
          type: 'string',
          describe: 'Gold-error flags CSV (task_id,predicted_label; 0 = wrong gold): adds accuracy on the clean subset (default with the bundled data: its audit flags)',
        })
        .option('workers', { type: 'number', describe: 'Parallel execution processes (default: one per core)' }),
    ) as unknown as Argv<ScoreArgs>,
  handler: async (argv) => {
    const bundled = argv.questions === undefined ? bundledSpider() : undefined;
    const questions = argv.questions ?? bundled!.questions;
    const dbRoot = argv.dbRoot ?? bundled?.dbRoot;
    if (!dbRoot) throw new UserError('--db-root is required with --questions (the directory holding <db_id>/<db_id>.sqlite)');
    const specs = argv.system?.map(parseSystemArg) ?? bundled?.systems.map((s) => [s.name, s.file] as [string, string]);
    if (!specs || specs.length === 0) throw new UserError('name at least one --system NAME=FILE');
    const names = new Set<string>();
    for (const [name] of specs) {
      if (names.has(name)) throw new UserError(`two systems are named "${name}"; give each --system a distinct NAME=`);
      names.add(name);
    }
    const bench = loadBenchmark(questions);
    const systems = specs.map(([name, file]) => loadPredictions(file, bench, name));
    const comparator = (argv.comparator as ComparatorName | undefined) ?? (bench.format === 'bird' ? 'bird' : 'spider');
    const store = openRunStore(argv.store);
    const engine = new ExecutionEngine({ dbRoot, timeoutSec: argv.timeout, maxRows: argv.maxRows, store, ...(argv.workers ? { workers: argv.workers } : {}) });
    const progress = terminalProgress('executing');
    let run: ExRun;
    try {
      run = await runEx(bench, systems, engine, { comparator, keepDistinct: argv.keepDistinct }, (d, t) => progress.update(d, t));
    } finally {
      progress.stop();
      await engine.close();
      store.close();
    }
    if (argv.items) writeItems(argv.items, run.items);
    const flagsFile = argv.flags ?? bundled?.flags;
    const flagInfo = flagsFile ? { file: flagsFile, ...addCleanSubset(run, readErrorFlags(flagsFile)) } : undefined;
    for (const note of bench.notes ?? []) process.stderr.write(`sqlboard: ${questions}: ${note}\n`);
    for (const s of systems) for (const note of s.notes ?? []) process.stderr.write(`sqlboard: ${s.system}: ${note}\n`);
    emitReport(scoreReport(run, questions, flagInfo), scoreJson(run, questions, flagInfo), argv);
  },
};

interface FlagInfo {
  file: string;
  flagged: number;
  unknown: number;
}

function scoreJson(run: ExRun, questions: string, flags: FlagInfo | undefined): object {
  return {
    comparator: run.comparator,
    keepDistinct: run.keepDistinct,
    questions,
    tasks: run.tasks,
    systems: [...run.systems]
      .sort((a, b) => b.accuracy - a.accuracy)
      .map((s) => ({
        name: s.name,
        file: s.file,
        n: s.n,
        correct: s.correct,
        accuracy: s.accuracy,
        execErrors: s.execErrors,
        timeouts: s.timeouts,
        missing: s.missing,
        goldErrors: s.goldErrors,
        byDifficulty: s.byDifficulty,
        ...(s.clean ? { clean: s.clean } : {}),
      })),
    ...(flags ? { flags: { file: flags.file, flagged: flags.flagged, clean: run.tasks - flags.flagged } } : {}),
    execution: run.execution,
  };
}

function scoreReport(run: ExRun, questions: string, flags: FlagInfo | undefined): Report {
  const ranked = [...run.systems].sort((a, b) => b.accuracy - a.accuracy);
  const columns: Column[] = [
    { key: 'rank', header: '#', format: 'integer' },
    { key: 'system', header: 'System' },
    { key: 'ex', header: 'EX [95% CI]', format: 'percent' },
    { key: 'correct', header: 'Correct', format: 'integer' },
    ...(flags ? [{ key: 'clean', header: 'Clean-subset EX', format: 'percent' } as Column] : []),
    ...run.difficultyLevels.map((l): Column => ({ key: `d_${l}`, header: l, format: 'percent' })),
    { key: 'errors', header: 'Exec err', format: 'integer' },
    { key: 'timeouts', header: 'Timeouts', format: 'integer' },
    { key: 'missing', header: 'Missing', format: 'integer' },
  ];
  const rows = ranked.map((s, i) => ({
    rank: i + 1,
    system: s.name,
    ex: { ...wilson(s.correct, s.n) },
    correct: s.correct,
    ...(s.clean ? { clean: { ...wilson(s.clean.correct, s.clean.n) } } : {}),
    ...Object.fromEntries(run.difficultyLevels.map((l) => [`d_${l}`, s.byDifficulty[l]?.n ? s.byDifficulty[l]!.accuracy : null])),
    errors: s.execErrors,
    timeouts: s.timeouts,
    missing: s.missing,
  }));
  const goldErrors = ranked[0]?.goldErrors ?? 0;
  const levelsN = run.difficultyLevels.map((l) => `${l} ${ranked[0]?.byDifficulty[l]?.n ?? 0}`).join(', ');
  const x = run.execution;
  return {
    title: `Execution accuracy (${run.comparator} comparator)`,
    meta: { questions, tasks: run.tasks, comparator: run.comparator + (run.keepDistinct ? ' (DISTINCT kept)' : '') },
    sections: [
      {
        title: 'Systems',
        table: { columns, rows },
        notes: [
          `Tasks by difficulty: ${levelsN}.`,
          'A missing prediction counts wrong; a prediction that fails or times out counts wrong.',
          ...(goldErrors > 0 ? [`${goldErrors} gold queries failed to execute; those tasks count wrong for every system.`] : []),
          ...(flags
            ? [
                `Clean subset: the ${run.tasks - flags.flagged} tasks whose gold is not flagged as wrong in ${flags.file} (${flags.flagged} flagged${flags.unknown ? `; ${flags.unknown} tasks not in the file count as clean` : ''}).`,
                'When the flags come from an audit that used these same systems as agents, the clean subset leans toward tasks they agree on: compare systems on it, do not read it as their true accuracy.',
              ]
            : []),
          `Executions: ${x.distinct} distinct queries of ${x.requested} requested; ${x.executed} executed now, ${x.reused} reused from the run store.`,
        ],
      },
    ],
  };
}
