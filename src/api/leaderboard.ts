import { readBoardCsv } from '../benchmark/board-csv.js';
import { checkFlagTasks, readErrorFlags } from '../benchmark/error-flags.js';
import { readLabelFile } from '../benchmark/label-files.js';
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
import { withProvenance } from './provenance.js';
import { resolveOptions, type OptionValues } from './option-table.js';
import type { GatedResult } from './types.js';
import { LEADERBOARD_OPTIONS } from './leaderboard-options.js';

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
    const ctx = { file: opts.board, board, noiseSplit: (opts.noiseSplit ?? 'dev') as 'dev' | 'test' };
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
  const goldLabels = opts.goldLabels !== undefined ? readLabelFile(opts.goldLabels).labels : undefined;
  const lb = rangeErrorsAsUserErrors(() => itemsLeaderboard({ sources, flags, goldLabels, flawed: opts.flawed, errorRate: opts.errorRate, seed, iterations, confidence }));
  if (lb.systems.length === 0) throw new UserError('the verdict files hold no records');
  const ctx = { files: itemFiles, flagsFile: opts.flags, goldLabelsFile: opts.goldLabels, ...(metric === 'em' ? { measure: 'Exact set match accuracy', accuracyHeader: 'EM accuracy' } : { measure: measureOf(sources.flatMap((s) => s.records)) }) };
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
