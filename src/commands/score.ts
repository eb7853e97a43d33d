import { dirname, join } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { score, scoreInputs } from '../api/score.js';
import type { RepairName } from '../benchmark/repairs.js';
import { UserError } from '../errors.js';
import { DEFAULT_MAX_MEMORY_MB, DEFAULT_MAX_RESULT_BYTES, MAX_RESULT_BYTES } from '../execution/engine.js';
import type { ComparatorName } from '../execution/ex-run.js';
import { emitReport, type ReportOptions } from '../report/output.js';
import { addReportOptions, checkOutputs } from './report-options.js';
import { FAIL_UNDER_DESCRIBE, parseFailUnder, unmetGates } from '../report/fail-under.js';
import { finishRun, printNotes } from './outcome.js';
import { runProgress } from './progress.js';
import { DEFAULT_STORE } from '../store/run-store.js';
import { stopOnSignals } from './interrupt.js';
import { apiOptions } from './api-options.js';
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
    const { questions, dbRoot, specs, flagsFile } = scoreInputs(argv);
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
    const gates = parseFailUnder(argv.failUnder, SCORE_GATES);
    if (!flagsFile && gates.some((g) => g.metric === 'clean')) throw new UserError('--fail-under clean=... needs --flags FILE (the clean subset is the unflagged tasks)');
    const progress = runProgress();
    let result;
    try {
      result = await score({ ...apiOptions(argv), comparator: argv.comparator as ComparatorName | undefined, by: argv.by as 'db' | undefined, explorer: argv.html !== undefined, ...progress, onStoppable: stopOnSignals(argv.store) });
    } finally {
      progress.stop();
    }
    printNotes(result.notes);
    emitReport(result.report, result.json, argv);
    finishRun({ partial: result.partial, belowThreshold: unmetGates(gates, result.metrics) });
  },
};
