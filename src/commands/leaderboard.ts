import type { CommandModule } from 'yargs';
import { readBoardCsv } from '../benchmark/board-csv.js';
import { readErrorFlags } from '../benchmark/error-flags.js';
import { readItems } from '../benchmark/items.js';
import { rangeErrorsAsUserErrors, UserError } from '../errors.js';
import { wholeNumber } from '../api/option-checks.js';
import { boardJson, boardReport } from '../report/leaderboard-board.js';
import { itemsJson, itemsReport, measureOf } from '../report/leaderboard-items.js';
import { emitReport, type ReportOptions } from '../report/output.js';
import { addReportOptions } from './report-options.js';
import { FAIL_UNDER_DESCRIBE, parseFailUnder, unmetGates } from '../report/fail-under.js';
import { finishRun } from './outcome.js';
import { byDatabaseSection, itemMetricFields } from '../report/by-database-report.js';
import { breakdownByDatabase } from '../stats/by-database.js';
import { analyseBoard } from '../stats/board-gaps.js';
import { itemsLeaderboard } from '../stats/leaderboard.js';
import { VERBS } from './verbs.js';
import { meanLeaderboard } from '../stats/mean-leaderboard.js';
import { meanJson, meanReport } from '../report/leaderboard-mean.js';
import { METRIC_LABEL } from '../report/score-metrics.js';
import { ITEM_FIELD, type ContinuousMetric } from '../execution/metric-means.js';
import type { ItemRecord } from '../benchmark/types.js';

/** Records whose `correct` is their exact match (`em` from score --metric em --items). */
function asExactMatch(file: string, records: ItemRecord[]): ItemRecord[] {
  if (!records.some((r) => typeof r.em === 'number')) {
    throw new UserError(`${file}: no record carries "em": write it with \`sqlboard score --metric ex,em --items FILE\``);
  }
  return records.map((r) => ({ ...r, correct: r.em === 1 }));
}

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
    const itemFiles = [...(argv.files ?? []), ...(argv.items ?? [])];
    if (argv.board !== undefined) {
      if (argv.by !== undefined) throw new UserError('--by db needs per-item verdicts; a published --board has no per-database scores');
      if (argv.failUnder?.length) throw new UserError('--fail-under gates systems scored from verdict files, not a published --board');
      if (itemFiles.length || argv.flags) throw new UserError('--board analyses a published leaderboard; do not combine it with verdict files or --flags');
      if (argv.n === undefined || (argv.flawed === undefined && argv['error-rate'] === undefined)) {
        throw new UserError('--board needs --n N and --flawed E or --error-rate R (SALUS on BIRD dev: --n 1534 --flawed 564)');
      }
      const board = readBoardCsv(argv.board);
      if (board.rows.length === 0) throw new UserError(`${argv.board}: no row has both a dev and a test score`);
      const { n, flawed, top, confidence } = argv;
      const analysis = rangeErrorsAsUserErrors(() => analyseBoard({ entries: board.rows, top, n, flawed, errorRate: argv['error-rate'], confidence }));
      const ctx = { file: argv.board, board };
      emitReport(boardReport(analysis, ctx), boardJson(analysis, ctx), argv);
      return;
    }
    if (itemFiles.length === 0) throw new UserError('give per-item verdict files (from `score --items`), or --board FILE');
    if (argv.n !== undefined) throw new UserError('--n is for --board; with verdict files N is the number of tasks');
    wholeNumber('seed', argv.seed);
    const gates = parseFailUnder(argv.failUnder, LEADERBOARD_GATES);
    if (argv.flags === undefined && gates.some((g) => g.metric === 'clean')) throw new UserError('--fail-under clean=... needs --flags FILE (the clean subset is the unflagged tasks)');
    const read = itemFiles.map((file) => ({ file, records: readItems(file) }));
    if (argv.metric !== 'ex' && argv.metric !== 'em') {
      if (argv.flags !== undefined || gates.length > 0) throw new UserError(`--flags and --fail-under work with --metric ex or em, not ${argv.metric}`);
      const metric = argv.metric as ContinuousMetric;
      const { seed, iterations, confidence } = argv;
      const lb = rangeErrorsAsUserErrors(() => meanLeaderboard(read, ITEM_FIELD[metric], { seed, iterations, confidence }));
      const ctx = { files: itemFiles, metric, label: METRIC_LABEL[metric] };
      emitReport(meanReport(lb, ctx), meanJson(lb, ctx), argv);
      finishRun({ partial: [], belowThreshold: [] });
      return;
    }
    // EM is 0/1 per item like EX: rank it with the same intervals and paired tests.
    const sources = argv.metric === 'em' ? read.map((s) => ({ file: s.file, records: asExactMatch(s.file, s.records) })) : read;
    const flags = argv.flags !== undefined ? readErrorFlags(argv.flags) : undefined;
    const { seed, iterations, confidence, flawed } = argv;
    const lb = rangeErrorsAsUserErrors(() => itemsLeaderboard({ sources, flags, flawed, errorRate: argv['error-rate'], seed, iterations, confidence }));
    if (lb.systems.length === 0) throw new UserError('the verdict files hold no records');
    const ctx = { files: itemFiles, flagsFile: argv.flags, measure: measureOf(sources.flatMap((s) => s.records)) };
    const report = itemsReport(lb, ctx);
    const json = itemsJson(lb, ctx);
    if (argv.by === 'db') {
      const items = sources.flatMap((s) => s.records);
      if (!items.some((r) => r.dbId !== undefined)) throw new UserError('--by db: the verdict files carry no dbId (score --items and judge --items write it)');
      const { fields, labels } = itemMetricFields(items);
      const byDb = breakdownByDatabase(items, lb.systems.map((s) => s.system), fields, confidence);
      report.sections.splice(1, 0, byDatabaseSection(byDb, 'Accuracy', labels));
      json.byDb = byDb;
    }
    emitReport(report, json, argv);
    const undecided = lb.systems.reduce((k, s) => k + s.undecided, 0);
    const gated = lb.systems.map((s) => ({ name: s.system, metrics: { accuracy: s.accuracy.estimate, ex: s.accuracy.estimate, clean: s.clean?.accuracy.estimate } }));
    finishRun({
      partial: undecided > 0 ? [`${undecided} verdicts in the input are undecided (correct: null) and count wrong here`] : [],
      belowThreshold: unmetGates(gates, gated),
    });
  },
};
