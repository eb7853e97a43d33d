import { readItems } from '../benchmark/items.js';
import { joinLabels, readLabelFile } from '../benchmark/label-files.js';
import { ITEM_FIELD, type ContinuousMetric } from '../execution/metric-means.js';
import { meanJson, meanReport } from '../report/leaderboard-mean.js';
import { METRIC_LABEL } from '../report/score-metrics.js';
import { meanLeaderboard } from '../stats/mean-leaderboard.js';
import { rangeErrorsAsUserErrors, UserError } from '../errors.js';
import { agreementOutput, detectorOutput, gapOutput, intervalOutput, prevalenceOutput, type StatsOutput } from '../report/stats-report.js';
import { agreementWithCI, detectorIntervals, detectorMetrics } from '../stats/agreement.js';
import { gapThreshold } from '../stats/gap.js';
import { clopperPearson, wilson } from '../stats/intervals.js';
import { roganGladen } from '../stats/prevalence.js';
import { resolveOptions, type OptionValues } from './option-table.js';
import { withProvenance } from './provenance.js';
import type { CommandResult } from './types.js';
import { GAP_OPTIONS, PREVALENCE_OPTIONS, DETECTOR_OPTIONS, INTERVAL_OPTIONS, AGREEMENT_OPTIONS } from './stats-options.js';

export type GapOptions = { statistic: 'gap' } & OptionValues<typeof GAP_OPTIONS>;
export type PrevalenceOptions = { statistic: 'prevalence' } & OptionValues<typeof PREVALENCE_OPTIONS>;
export type DetectorOptions = { statistic: 'detector' } & OptionValues<typeof DETECTOR_OPTIONS>;
/** The library's `metric` also takes 'em', as it always did; the CLI's --metric offers soft-f1, ves and r-ves. */
export type IntervalOptions = { statistic: 'interval'; metric?: ContinuousMetric } & Omit<OptionValues<typeof INTERVAL_OPTIONS>, 'metric'>;
export type AgreementOptions = { statistic: 'agreement'; a: string; b: string } & OptionValues<typeof AGREEMENT_OPTIONS>;

export type StatsOptions = GapOptions | PrevalenceOptions | DetectorOptions | IntervalOptions | AgreementOptions;

// ---- one function per statistic: the table's rules first (src/api/option-table.ts) -------------

function gap(opts: GapOptions): StatsOutput {
  const { n, flawed, errorRate, confidence } = resolveOptions(GAP_OPTIONS, opts);
  const r = rangeErrorsAsUserErrors(() => gapThreshold({ n: n!, flawed, errorRate, confidence }));
  return gapOutput(r);
}

function prevalence(opts: PrevalenceOptions): StatsOutput {
  const o = resolveOptions(PREVALENCE_OPTIONS, opts);
  const input = { n: o.n!, flagged: o.flagged!, tp: o.tp!, fp: o.fp!, fn: o.fn!, tn: o.tn!, confidence: o.confidence };
  const r = rangeErrorsAsUserErrors(() => roganGladen(input));
  return prevalenceOutput(input, r);
}

function detector(opts: DetectorOptions): StatsOutput {
  const o = resolveOptions(DETECTOR_OPTIONS, opts);
  const c = { tp: o.tp!, fp: o.fp!, fn: o.fn!, tn: o.tn! };
  return detectorOutput(c, detectorMetrics(c), detectorIntervals(c, o.confidence), o.confidence);
}

function interval(opts: IntervalOptions): StatsOutput {
  // Without --items, K and N are checked before the confidence, as they always were.
  const o = resolveOptions(INTERVAL_OPTIONS, opts, ['items', 'k', 'n']);
  const { confidence } = o;
  if (opts.items !== undefined) {
    const metric = opts.metric!;
    const read = opts.items.map((file) => ({ file, records: readItems(file) }));
    const lb = rangeErrorsAsUserErrors(() => meanLeaderboard(read, ITEM_FIELD[metric], { seed: o.seed, iterations: o.iterations, confidence }));
    const ctx = { files: opts.items, metric, label: METRIC_LABEL[metric] };
    return { report: meanReport(lb, ctx), json: meanJson(lb, ctx) };
  }
  const k = o.k!;
  const n = o.n!;
  return intervalOutput(k, n, confidence, wilson(k, n, confidence), clopperPearson(k, n, confidence));
}

function agreement(opts: AgreementOptions): StatsOutput {
  const { seed, iterations, confidence } = resolveOptions(AGREEMENT_OPTIONS, opts, ['iterations', 'seed']);
  const la = readLabelFile(opts.a, { system: opts.systemA });
  const lb = readLabelFile(opts.b, { system: opts.systemB });
  const j = joinLabels(la.labels, lb.labels);
  if (j.taskIds.length === 0) {
    throw new UserError(`${opts.a} and ${opts.b} share no task ids (${la.labels.size} and ${lb.labels.size} labelled tasks): check that both use the same ids`);
  }
  const r = agreementWithCI(j.a, j.b, { seed, iterations, confidence });
  return agreementOutput(r, { fileA: opts.a, fileB: opts.b, labelsA: la, labelsB: lb, joined: j, seed, iterations, confidence });
}

/** Noise-aware statistics (`sqlboard stats <statistic>`); `statistic` picks which. */
export function stats(opts: StatsOptions): CommandResult {
  const started = new Date();
  const out = runStatistic(opts);
  // Only agreement and interval over --items resample.
  const seeded = opts.statistic === 'agreement' || (opts.statistic === 'interval' && opts.items !== undefined);
  const seed = seeded ? (opts as AgreementOptions | IntervalOptions).seed ?? 42 : undefined;
  return withProvenance(
    { report: out.report, json: out.json as Record<string, unknown>, notes: [] },
    { command: `stats ${opts.statistic}`, options: opts, started, ...(seed !== undefined ? { seed } : {}) },
  );
}

function runStatistic(o: StatsOptions): StatsOutput {
  switch (o.statistic) {
    case 'gap':
      return gap(o);
    case 'prevalence':
      return prevalence(o);
    case 'detector':
      return detector(o);
    case 'interval':
      return interval(o);
    case 'agreement':
      return agreement(o);
  }
}
