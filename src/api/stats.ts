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
import { wholeNumber } from './option-checks.js';
import type { OptionTable, OptionValues } from './option-table.js';
import { withProvenance } from './provenance.js';
import type { CommandResult } from './types.js';

/** The confusion table of `stats prevalence` and `stats detector`. */
const CONFUSION_OPTIONS = {
  tp: { type: 'number', describe: 'Labelled errors the detector flagged' },
  fp: { type: 'number', describe: 'Labelled correct items it flagged' },
  fn: { type: 'number', describe: 'Labelled errors it missed' },
  tn: { type: 'number', describe: 'Labelled correct items it passed' },
} as const satisfies OptionTable;

/** `sqlboard stats gap`'s options: SALUS's noise bound g* from N and e (or e/N). */
export const GAP_OPTIONS = {
  n: { type: 'number', describe: 'Benchmark size N (tasks)' },
  flawed: { type: 'number', describe: 'e: tasks with wrong gold' },
  'error-rate': { type: 'number', describe: 'e/N as a fraction (instead of --flawed)' },
  confidence: { type: 'number', default: 0.95, describe: 'One-sided confidence for g*' },
} as const satisfies OptionTable;

/** `sqlboard stats prevalence`'s options: Rogan–Gladen calibrated error rate. */
export const PREVALENCE_OPTIONS = {
  n: { type: 'number', describe: 'N: items the detector ran on' },
  flagged: { type: 'number', describe: 'Items it flagged among N' },
  ...CONFUSION_OPTIONS,
  confidence: { type: 'number', default: 0.95, describe: 'Two-sided confidence of the CI' },
} as const satisfies OptionTable;

/** `sqlboard stats detector`'s options: error-detector quality from its confusion table. */
export const DETECTOR_OPTIONS = {
  ...CONFUSION_OPTIONS,
  confidence: { type: 'number', default: 0.95, describe: 'Two-sided confidence of the Wilson CIs' },
} as const satisfies OptionTable;

/** `sqlboard stats interval`'s options: Wilson and Clopper–Pearson intervals for k of n, or bootstrap intervals of a metric. */
export const INTERVAL_OPTIONS = {
  k: { type: 'number', describe: 'Successes' },
  n: { type: 'number', describe: 'Trials' },
  confidence: { type: 'number', default: 0.95, describe: 'Two-sided confidence' },
  items: { type: 'string', array: true, describe: 'Per-item files of score --items: intervals of --metric per system instead of K/N' },
  metric: { choices: ['soft-f1', 'ves', 'r-ves'], describe: 'With --items: the continuous metric (percentile bootstrap of its mean)' },
  seed: { type: 'number', default: 42, describe: 'With --items: bootstrap seed' },
  iterations: { type: 'number', default: 2000, describe: 'With --items: bootstrap resamples' },
} as const satisfies OptionTable;

/** `sqlboard stats agreement`'s options (besides its two label files): agreement of two per-item label files. */
export const AGREEMENT_OPTIONS = {
  'system-a': { type: 'string', describe: 'System to read from A when it holds several' },
  'system-b': { type: 'string', describe: 'System to read from B when it holds several' },
  seed: { type: 'number', default: 42, describe: 'Bootstrap seed' },
  iterations: { type: 'number', default: 2000, describe: 'Bootstrap resamples' },
  confidence: { type: 'number', default: 0.95, describe: 'Two-sided confidence' },
} as const satisfies OptionTable;

export type GapOptions = { statistic: 'gap' } & OptionValues<typeof GAP_OPTIONS>;
export type PrevalenceOptions = { statistic: 'prevalence' } & OptionValues<typeof PREVALENCE_OPTIONS>;
export type DetectorOptions = { statistic: 'detector' } & OptionValues<typeof DETECTOR_OPTIONS>;
/** The library's `metric` also takes 'em', as it always did; the CLI's --metric offers soft-f1, ves and r-ves. */
export type IntervalOptions = { statistic: 'interval'; metric?: ContinuousMetric } & Omit<OptionValues<typeof INTERVAL_OPTIONS>, 'metric'>;
export type AgreementOptions = { statistic: 'agreement'; a: string; b: string } & OptionValues<typeof AGREEMENT_OPTIONS>;

export type StatsOptions = GapOptions | PrevalenceOptions | DetectorOptions | IntervalOptions | AgreementOptions;

// ---- option checks (a UserError names the flag) ------------------------------------------

function count(name: string, v: number | undefined): number {
  if (v === undefined) throw new UserError(`missing --${name} (a non-negative whole number)`);
  if (!Number.isInteger(v) || v < 0) throw new UserError(`--${name} must be a non-negative whole number (got ${String(v)})`);
  return v;
}

function fraction(name: string, v: number | undefined, open = false): number {
  const ok = v !== undefined && Number.isFinite(v) && (open ? v > 0 && v < 1 : v >= 0 && v <= 1);
  if (!ok) {
    const hint = v !== undefined && v > 1 && v <= 100 ? ` (a fraction, not a percent: ${v / 100}?)` : '';
    throw new UserError(`--${name} must be a fraction ${open ? 'strictly between 0 and 1' : 'in [0, 1]'} (got ${String(v)})${hint}`);
  }
  return v;
}

// ---- one function per statistic ------------------------------------------------------------

function gap(o: GapOptions): StatsOutput {
  const n = count('n', o.n);
  if ((o.flawed === undefined) === (o.errorRate === undefined)) {
    throw new UserError('give exactly one of --flawed E (a count) and --error-rate R (a fraction)');
  }
  const flawed = o.flawed === undefined ? undefined : count('flawed', o.flawed);
  if (flawed !== undefined && flawed > n) throw new UserError(`--flawed (${flawed}) cannot exceed --n (${n})`);
  const errorRate = o.errorRate === undefined ? undefined : fraction('error-rate', o.errorRate);
  const confidence = fraction('confidence', o.confidence ?? 0.95, true);
  const r = rangeErrorsAsUserErrors(() => gapThreshold({ n, flawed, errorRate, confidence }));
  return gapOutput(r);
}

function prevalence(o: PrevalenceOptions): StatsOutput {
  const input = {
    n: count('n', o.n),
    flagged: count('flagged', o.flagged),
    tp: count('tp', o.tp),
    fp: count('fp', o.fp),
    fn: count('fn', o.fn),
    tn: count('tn', o.tn),
    confidence: fraction('confidence', o.confidence ?? 0.95, true),
  };
  if (input.flagged > input.n) throw new UserError(`--flagged (${input.flagged}) cannot exceed --n (${input.n})`);
  const r = rangeErrorsAsUserErrors(() => roganGladen(input));
  return prevalenceOutput(input, r);
}

function detector(o: DetectorOptions): StatsOutput {
  const c = { tp: count('tp', o.tp), fp: count('fp', o.fp), fn: count('fn', o.fn), tn: count('tn', o.tn) };
  const confidence = fraction('confidence', o.confidence ?? 0.95, true);
  return detectorOutput(c, detectorMetrics(c), detectorIntervals(c, confidence), confidence);
}

function interval(o: IntervalOptions): StatsOutput {
  if (o.items !== undefined) {
    if (o.metric === undefined) throw new UserError('--items needs --metric soft-f1, ves or r-ves (for EX and EM use --k/--n or leaderboard)');
    const confidence = fraction('confidence', o.confidence ?? 0.95, true);
    const metric = o.metric;
    const read = o.items.map((file) => ({ file, records: readItems(file) }));
    const lb = rangeErrorsAsUserErrors(() => meanLeaderboard(read, ITEM_FIELD[metric], { seed: o.seed ?? 42, iterations: o.iterations ?? 2000, confidence }));
    const ctx = { files: o.items, metric, label: METRIC_LABEL[metric] };
    return { report: meanReport(lb, ctx), json: meanJson(lb, ctx) };
  }
  const k = count('k', o.k);
  const n = count('n', o.n);
  if (k > n) throw new UserError(`--k (${k}) cannot exceed --n (${n})`);
  const confidence = fraction('confidence', o.confidence ?? 0.95, true);
  return intervalOutput(k, n, confidence, wilson(k, n, confidence), clopperPearson(k, n, confidence));
}

function agreement(o: AgreementOptions): StatsOutput {
  const iterations = count('iterations', o.iterations ?? 2000);
  if (iterations < 1) throw new UserError('--iterations must be at least 1');
  const seed = o.seed ?? 42;
  wholeNumber('seed', seed);
  const confidence = fraction('confidence', o.confidence ?? 0.95, true);
  const la = readLabelFile(o.a, { system: o.systemA });
  const lb = readLabelFile(o.b, { system: o.systemB });
  const j = joinLabels(la.labels, lb.labels);
  if (j.taskIds.length === 0) {
    throw new UserError(`${o.a} and ${o.b} share no task ids (${la.labels.size} and ${lb.labels.size} labelled tasks): check that both use the same ids`);
  }
  const r = agreementWithCI(j.a, j.b, { seed, iterations, confidence });
  return agreementOutput(r, { fileA: o.a, fileB: o.b, labelsA: la, labelsB: lb, joined: j, seed, iterations, confidence });
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
