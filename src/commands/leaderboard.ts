import type { CommandModule } from 'yargs';
import { leaderboard, type LeaderboardOptions } from '../api/leaderboard.js';
import { UserError } from '../errors.js';
import { emitReport, type ReportOptions } from '../report/output.js';
import { addReportOptions, checkOutputs } from './report-options.js';
import { FAIL_UNDER_DESCRIBE, parseFailUnder, unmetGates } from '../report/fail-under.js';
import { finishRun } from './outcome.js';
import { VERBS } from './verbs.js';


interface LeaderboardArgs extends ReportOptions {
  files?: string[];
  items?: string[];
  flags?: string;
  board?: string;
  top: number;
  n?: number;
  flawed?: number;
  'error-rate'?: number;
  confidence: number;
  seed: number;
  iterations: number;
  failUnder?: string[];
  by?: string;
  metric: string;
}

/** What `leaderboard --fail-under` can gate, per system. */
const LEADERBOARD_GATES = { accuracy: 'accuracy over the verdicts (alias ex)', ex: 'the same as accuracy', clean: 'accuracy on the clean subset; needs --flags' };

export const leaderboardCommand: CommandModule<object, LeaderboardArgs> = {
  ...VERBS.leaderboard,
  builder: (y) =>
    addReportOptions(
      y
        .positional('files', { type: 'string', array: true, describe: 'Per-item verdict files (JSONL from score/judge --items)' })
        .option('items', { type: 'string', array: true, describe: 'More per-item verdict files' })
        .option('flags', { type: 'string', describe: 'SALUS flags CSV task_id,predicted_label (0 = wrong gold): adds clean-subset accuracy and g*' })
        .option('board', { type: 'string', describe: 'Leaderboard CSV (system|model|name, dev, test in percent) instead of verdicts' })
        .option('top', { type: 'number', default: 30, describe: '--board: analyse the top K systems by test' })
        .option('n', { type: 'number', describe: '--board: benchmark size N for g* (required; with verdict files N is the number of tasks)' })
        .option('flawed', { type: 'number', describe: 'Tasks with wrong gold, e (for g*)' })
        .option('error-rate', { type: 'number', describe: 'Or the error rate e/N as a fraction (for g*)' })
        .option('confidence', { type: 'number', default: 0.95, describe: 'Confidence for intervals, tests and g*' })
        .option('seed', { type: 'number', default: 42, describe: 'Bootstrap seed' })
        .option('iterations', { type: 'number', default: 2000, describe: 'Bootstrap resamples' })
        .option('by', { choices: ['db'], describe: 'Also break accuracy down per database (needs dbId in the verdicts; every output format)' })
        .option('metric', {
          choices: ['ex', 'em', 'soft-f1', 'ves', 'r-ves'],
          default: 'ex',
          describe: 'Rank by this per-item metric of score --items: ex (correct), em (exact match, 0/1: same tests as ex), or the continuous soft-f1, ves, r-ves (bootstrap intervals, paired bootstrap against #1)',
        })
        .option('fail-under', { type: 'string', array: true, describe: `${FAIL_UNDER_DESCRIBE}; metrics: accuracy (or ex), clean` })
        .epilogue(
          'From verdicts: tasks are the union over all systems; a system without a verdict for a task counts it wrong ' +
            '(the report names it). "Indistinguishable from #1" = exact McNemar p >= 1 - confidence. ' +
            'With --flags (or --flawed/--error-rate), g* = z*2*sqrt(e)/N uses N = the number of tasks. ' +
            'Put --csv/--md after the verdict files (or write --csv -): they take an optional FILE.',
        )
        .example('$0 leaderboard --board overall-ex.csv --n 1534 --flawed 564', 'Which BIRD gaps exceed the noise threshold')
        .example('$0 leaderboard a.jsonl b.jsonl --flags frontier_spider.csv --html board.html', 'Per-item leaderboard with an HTML report'),
    ),
  handler: (argv) => {
    checkOutputs(argv, { inputs: { 'verdict file': argv.files, '--items': argv.items, '--flags': argv.flags, '--board': argv.board } });
    if (argv.board !== undefined && argv.by === undefined && argv.failUnder?.length) throw new UserError('--fail-under gates systems scored from verdict files, not a published --board');
    const gates = argv.board === undefined ? parseFailUnder(argv.failUnder, LEADERBOARD_GATES) : [];
    if (argv.flags === undefined && gates.some((g) => g.metric === 'clean')) throw new UserError('--fail-under clean=... needs --flags FILE (the clean subset is the unflagged tasks)');
    if (gates.length > 0 && argv.metric !== 'ex' && argv.metric !== 'em') throw new UserError(`--flags and --fail-under work with --metric ex or em, not ${argv.metric}`);
    const result = leaderboard({
      items: [...(argv.files ?? []), ...(argv.items ?? [])],
      flags: argv.flags,
      board: argv.board,
      top: argv.top,
      n: argv.n,
      flawed: argv.flawed,
      errorRate: argv['error-rate'],
      confidence: argv.confidence,
      seed: argv.seed,
      iterations: argv.iterations,
      by: argv.by as 'db' | undefined,
      metric: argv.metric as LeaderboardOptions['metric'],
    });
    emitReport(result.report, result.json, argv);
    finishRun({ partial: result.partial, belowThreshold: unmetGates(gates, result.metrics) });
  },
};
