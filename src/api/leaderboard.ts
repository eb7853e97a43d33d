import { readBoardCsv } from '../benchmark/board-csv.js';
import { checkFlagTasks, readErrorFlags } from '../benchmark/error-flags.js';
import { readItems } from '../benchmark/items.js';
import { rangeErrorsAsUserErrors, UserError } from '../errors.js';
import { byDatabaseSection, itemMetricFields } from '../report/by-database-report.js';
import { boardJson, boardReport } from '../report/leaderboard-board.js';
import { itemsJson, itemsReport, measureOf } from '../report/leaderboard-items.js';
import { breakdownByDatabase } from '../stats/by-database.js';
import { analyseBoard } from '../stats/board-gaps.js';
import { itemsLeaderboard } from '../stats/leaderboard.js';
import type { ItemRecord } from '../benchmark/types.js';
import { ITEM_FIELD } from '../execution/metric-means.js';
import { meanJson, meanReport } from '../report/leaderboard-mean.js';
import { METRIC_LABEL } from '../report/score-metrics.js';
import { meanLeaderboard } from '../stats/mean-leaderboard.js';
import { refuse, whole, type OptionCheck } from './option-checks.js';
import { withProvenance } from './provenance.js';
import { resolveOptions, type OptionTable, type OptionValues } from './option-table.js';
import type { GatedResult } from './types.js';

/** A published board is analysed alone, and g* needs N and e. */
const BOARD_RULES = [
  refuse((board, o) => board !== undefined && o.by !== undefined, '--by db needs per-item verdicts; a published --board has no per-database scores'),
  refuse((board, o) => board !== undefined && (((o.items as string[] | undefined) ?? []).length > 0 || Boolean(o.flags)), '--board analyses a published leaderboard; do not combine it with verdict files or --flags'),
  refuse((board, o) => board !== undefined && (o.n === undefined || (o.flawed === undefined && o.errorRate === undefined)), '--board needs --n N and --flawed E or --error-rate R (SALUS on BIRD dev: --n 1534 --flawed 564)'),
];

/** The bootstrap's seed is a whole number (a published board is not resampled: no seed). */
const verdictSeed: OptionCheck = (seed, o, flag) => (o.board === undefined ? whole(seed, o, flag) : undefined);

/** Clean-subset accuracy and gates are 0/1 measures: --flags goes with ex or em. */
const flagsMetric: OptionCheck = (metric, o) => (o.board === undefined && metric !== 'ex' && metric !== 'em' && o.flags !== undefined ? `--flags and --fail-under work with --metric ex or em, not ${String(metric)}` : undefined);

/** `sqlboard leaderboard`'s options: the CLI's flags and the library's options object (camelCase) come from here. */
export const LEADERBOARD_OPTIONS = {
  items: {
    type: 'string',
    array: true,
    describe: 'Per-item verdict files (JSONL from score/judge --items); on the command line also the positional FILES',
    checks: [refuse((items, o) => o.board === undefined && ((items as string[] | undefined) ?? []).length === 0, 'give per-item verdict files (from `score --items`), or --board FILE')],
  },
  flags: { type: 'string', describe: 'SALUS flags CSV task_id,predicted_label (0 = wrong gold): adds clean-subset accuracy and g*' },
  board: { type: 'string', describe: 'Leaderboard CSV (system|model|name, dev, test in percent) instead of verdicts', checks: BOARD_RULES },
  top: { type: 'number', default: 30, describe: '--board: analyse the top K systems by test' },
  n: {
    type: 'number',
    describe: '--board: benchmark size N for g* (required; with verdict files N is the number of tasks)',
    checks: [refuse((n, o) => o.board === undefined && n !== undefined, '--n is for --board; with verdict files N is the number of tasks')],
  },
  flawed: { type: 'number', describe: 'Tasks with wrong gold, e (for g*)' },
  'error-rate': { type: 'number', describe: 'Or the error rate e/N as a fraction (for g*)' },
  confidence: { type: 'number', default: 0.95, describe: 'Confidence for intervals, tests and g*' },
  seed: { type: 'number', default: 42, describe: 'Bootstrap seed', checks: [verdictSeed] },
  iterations: { type: 'number', default: 2000, describe: 'Bootstrap resamples' },
  by: { type: 'string', choices: ['db'], describe: 'Also break accuracy down per database (needs dbId in the verdicts; every output format)' },
  metric: {
    type: 'string',
    choices: ['ex', 'em', 'soft-f1', 'ves', 'r-ves'],
    default: 'ex',
    describe: 'Rank by this per-item metric of score --items: ex (correct), em (exact match, 0/1: same tests as ex), or the continuous soft-f1, ves, r-ves (bootstrap intervals, paired bootstrap against #1)',
    checks: [flagsMetric],
  },
} as const satisfies OptionTable;

export type LeaderboardOptions = OptionValues<typeof LEADERBOARD_OPTIONS>;

/** Records whose `correct` is their exact match (`em` from score --metric em --items). */
function asExactMatch(file: string, records: ItemRecord[]): ItemRecord[] {
  if (!records.some((r) => typeof r.em === 'number')) {
    throw new UserError(`${file}: no record carries "em": write it with \`sqlboard score --metric ex,em --items FILE\``);
  }
  return records.map((r) => ({ ...r, correct: r.em === 1 }));
}

export interface LeaderboardResult extends GatedResult {
  /** Per system, the metrics `--fail-under` can gate (verdicts only; empty for a board). */
  metrics: { name: string; metrics: Record<string, number | undefined> }[];
  /** Why the result is partial (undecided verdicts), empty when it is complete. */
  partial: string[];
}

/** Ranks systems with intervals and significance, from per-item verdicts or a published board (`sqlboard leaderboard`). */
export function leaderboard(opts: LeaderboardOptions): LeaderboardResult {
  const started = new Date();
  // A published board is analysed without resampling: no seed.
  return withProvenance(rank(opts), { command: 'leaderboard', options: opts, started, ...(opts.board === undefined ? { seed: opts.seed ?? 42 } : {}) });
}

function rank(opts: LeaderboardOptions): LeaderboardResult {
  // The rules of LEADERBOARD_OPTIONS, in the order the command always reported them.
  const { confidence, top, seed, iterations, metric } = resolveOptions(LEADERBOARD_OPTIONS, opts, ['board', 'items', 'n', 'seed']);
  const itemFiles = opts.items ?? [];
  if (opts.board !== undefined) {
    const board = readBoardCsv(opts.board);
    if (board.rows.length === 0) throw new UserError(`${opts.board}: no row has both a dev and a test score`);
    const { n, flawed } = opts;
    const analysis = rangeErrorsAsUserErrors(() => analyseBoard({ entries: board.rows, top, n: n!, flawed, errorRate: opts.errorRate, confidence }));
    const ctx = { file: opts.board, board };
    return { report: boardReport(analysis, ctx), json: boardJson(analysis, ctx), notes: [], metrics: [], partial: [] };
  }
  const read = itemFiles.map((file) => ({ file, records: readItems(file) }));
  if (metric !== 'ex' && metric !== 'em') {
    const lb = rangeErrorsAsUserErrors(() => meanLeaderboard(read, ITEM_FIELD[metric], { seed, iterations, confidence }));
    const ctx = { files: itemFiles, metric, label: METRIC_LABEL[metric] };
    return { report: meanReport(lb, ctx), json: meanJson(lb, ctx) as Record<string, unknown>, notes: [], metrics: [], partial: [] };
  }
  // EM is 0/1 per item like EX: rank it with the same intervals and paired tests.
  const sources = metric === 'em' ? read.map((s) => ({ file: s.file, records: asExactMatch(s.file, s.records) })) : read;
  const flags = opts.flags !== undefined ? readErrorFlags(opts.flags) : undefined;
  // Flag rows for tasks no verdict file has are counted in the report; flags of which none matches are an error.
  if (flags) checkFlagTasks(opts.flags!, flags, sources.flatMap((s) => s.records.map((r) => r.taskId)), 'the verdict files');
  const lb = rangeErrorsAsUserErrors(() => itemsLeaderboard({ sources, flags, flawed: opts.flawed, errorRate: opts.errorRate, seed, iterations, confidence }));
  if (lb.systems.length === 0) throw new UserError('the verdict files hold no records');
  const ctx = { files: itemFiles, flagsFile: opts.flags, ...(metric === 'em' ? { measure: 'Exact set match accuracy', accuracyHeader: 'EM accuracy' } : { measure: measureOf(sources.flatMap((s) => s.records)) }) };
  const report = itemsReport(lb, ctx);
  const json = itemsJson(lb, ctx);
  if (opts.by === 'db') {
    const items = sources.flatMap((s) => s.records);
    if (!items.some((r) => r.dbId !== undefined)) throw new UserError('--by db: the verdict files carry no dbId (score --items and judge --items write it)');
    const { fields, labels } = itemMetricFields(items);
    const byDb = breakdownByDatabase(items, lb.systems.map((s) => s.system), fields, confidence);
    report.sections.splice(1, 0, byDatabaseSection(byDb, 'Accuracy', labels));
    json.byDb = byDb;
  }
  const undecided = lb.systems.reduce((k, s) => k + s.undecided, 0);
  return {
    report,
    json,
    notes: [],
    metrics: lb.systems.map((s) => ({ name: s.system, metrics: { accuracy: s.accuracy.estimate, ex: s.accuracy.estimate, clean: s.clean?.accuracy.estimate } })),
    partial: undecided > 0 ? [`${undecided} verdicts in the input are undecided (correct: null) and count wrong here`] : [],
  };
}
