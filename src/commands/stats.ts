import type { Argv, CommandModule } from 'yargs';
import { rangeErrorsAsUserErrors, UserError } from '../errors.js';
import { wholeNumber } from '../api/option-checks.js';
import { emitReport, type ReportOptions } from '../report/output.js';
import { addReportOptions } from './report-options.js';
import { agreementOutput, detectorOutput, gapOutput, intervalOutput, prevalenceOutput, type StatsOutput } from '../report/stats-report.js';
import { agreementWithCI, detectorIntervals, detectorMetrics } from '../stats/agreement.js';
import { gapThreshold } from '../stats/gap.js';
import { clopperPearson, wilson } from '../stats/intervals.js';
import { joinLabels, readLabelFile } from '../benchmark/label-files.js';
import { readItems } from '../benchmark/items.js';
import { ITEM_FIELD, type ContinuousMetric } from '../execution/metric-means.js';
import { meanJson, meanReport } from '../report/leaderboard-mean.js';
import { METRIC_LABEL } from '../report/score-metrics.js';
import { meanLeaderboard } from '../stats/mean-leaderboard.js';
import { roganGladen } from '../stats/prevalence.js';
import { VERBS } from './verbs.js';

/*
 * `sqlboard stats <sub>`: thin wrappers over src/stats. Each subcommand validates its flags
 * (UserError naming the flag), calls the core, and emits the Report and JSON object that
 * src/report/stats-report.ts builds.
 */

// ---- flag validation -------------------------------------------------------------------

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

// ---- output -----------------------------------------------------------------------------

const emit = (out: StatsOutput, argv: ReportOptions): void => emitReport(out.report, out.json, argv);

type Sub<A> = CommandModule<object, A & ReportOptions>;
const withReport = <A>(y: Argv<object>): Argv<A & ReportOptions> => addReportOptions(y) as unknown as Argv<A & ReportOptions>;

// ---- gap --------------------------------------------------------------------------------

interface GapArgs {
  n?: number;
  flawed?: number;
  errorRate?: number;
  confidence: number;
}

const gap: Sub<GapArgs> = {
  command: 'gap',
  describe: "SALUS's noise bound on accuracy gaps: sigma_gap = 2*sqrt(e)/N and threshold g* = z*sigma_gap",
  builder: (y) =>
    withReport<GapArgs>(
      y
        .option('n', { type: 'number', describe: 'Benchmark size N (tasks)' })
        .option('flawed', { type: 'number', describe: 'e: tasks with wrong gold' })
        .option('error-rate', { type: 'number', describe: 'e/N as a fraction (instead of --flawed)' })
        .option('confidence', { type: 'number', default: 0.95, describe: 'One-sided confidence for g*' }),
    ),
  handler: (argv) => {
    const n = count('n', argv.n);
    if ((argv.flawed === undefined) === (argv.errorRate === undefined)) {
      throw new UserError('give exactly one of --flawed E (a count) and --error-rate R (a fraction)');
    }
    const flawed = argv.flawed === undefined ? undefined : count('flawed', argv.flawed);
    if (flawed !== undefined && flawed > n) throw new UserError(`--flawed (${flawed}) cannot exceed --n (${n})`);
    const errorRate = argv.errorRate === undefined ? undefined : fraction('error-rate', argv.errorRate);
    const confidence = fraction('confidence', argv.confidence, true);
    const r = rangeErrorsAsUserErrors(() => gapThreshold({ n, flawed, errorRate, confidence }));
    emit(gapOutput(r), argv);
  },
};

// ---- prevalence -------------------------------------------------------------------------

interface PrevalenceArgs {
  n?: number;
  flagged?: number;
  tp?: number;
  fp?: number;
  fn?: number;
  tn?: number;
  confidence: number;
}

const confusionOptions = <T>(y: Argv<T>): Argv<T> =>
  y
    .option('tp', { type: 'number', describe: 'Labelled errors the detector flagged' })
    .option('fp', { type: 'number', describe: 'Labelled correct items it flagged' })
    .option('fn', { type: 'number', describe: 'Labelled errors it missed' })
    .option('tn', { type: 'number', describe: 'Labelled correct items it passed' });

const prevalence: Sub<PrevalenceArgs> = {
  command: 'prevalence',
  describe: 'Rogan–Gladen calibrated error rate from a flag rate and the detector’s labelled confusion table',
  builder: (y) =>
    withReport<PrevalenceArgs>(
      confusionOptions(
        y
          .option('n', { type: 'number', describe: 'N: items the detector ran on' })
          .option('flagged', { type: 'number', describe: 'Items it flagged among N' }),
      ).option('confidence', { type: 'number', default: 0.95, describe: 'Two-sided confidence of the CI' }),
    ),
  handler: (argv) => {
    const input = {
      n: count('n', argv.n),
      flagged: count('flagged', argv.flagged),
      tp: count('tp', argv.tp),
      fp: count('fp', argv.fp),
      fn: count('fn', argv.fn),
      tn: count('tn', argv.tn),
      confidence: fraction('confidence', argv.confidence, true),
    };
    if (input.flagged > input.n) throw new UserError(`--flagged (${input.flagged}) cannot exceed --n (${input.n})`);
    const r = rangeErrorsAsUserErrors(() => roganGladen(input));
    emit(prevalenceOutput(input, r), argv);
  },
};

// ---- detector ---------------------------------------------------------------------------

interface DetectorArgs {
  tp?: number;
  fp?: number;
  fn?: number;
  tn?: number;
  confidence: number;
}

const detector: Sub<DetectorArgs> = {
  command: 'detector',
  describe: 'Error-detector quality (positive = error) with its flag-everything and random floors',
  builder: (y) =>
    withReport<DetectorArgs>(confusionOptions(y).option('confidence', { type: 'number', default: 0.95, describe: 'Two-sided confidence of the Wilson CIs' })),
  handler: (argv) => {
    const c = { tp: count('tp', argv.tp), fp: count('fp', argv.fp), fn: count('fn', argv.fn), tn: count('tn', argv.tn) };
    const confidence = fraction('confidence', argv.confidence, true);
    emit(detectorOutput(c, detectorMetrics(c), detectorIntervals(c, confidence), confidence), argv);
  },
};

// ---- interval ---------------------------------------------------------------------------

interface IntervalArgs {
  k?: number;
  n?: number;
  confidence: number;
  items?: string[];
  metric?: string;
  seed: number;
  iterations: number;
}

const interval: Sub<IntervalArgs> = {
  command: 'interval',
  describe: 'Wilson and Clopper–Pearson intervals for K successes in N trials; or bootstrap intervals of a continuous metric from score --items',
  builder: (y) =>
    withReport<IntervalArgs>(
      y
        .option('k', { type: 'number', describe: 'Successes' })
        .option('n', { type: 'number', describe: 'Trials' })
        .option('confidence', { type: 'number', default: 0.95, describe: 'Two-sided confidence' })
        .option('items', { type: 'string', array: true, describe: 'Per-item files of score --items: intervals of --metric per system instead of K/N' })
        .option('metric', { choices: ['soft-f1', 'ves', 'r-ves'], describe: 'With --items: the continuous metric (percentile bootstrap of its mean)' })
        .option('seed', { type: 'number', default: 42, describe: 'With --items: bootstrap seed' })
        .option('iterations', { type: 'number', default: 2000, describe: 'With --items: bootstrap resamples' }),
    ),
  handler: (argv) => {
    if (argv.items !== undefined) {
      if (argv.metric === undefined) throw new UserError('--items needs --metric soft-f1, ves or r-ves (for EX and EM use --k/--n or leaderboard)');
      const confidence = fraction('confidence', argv.confidence, true);
      const metric = argv.metric as ContinuousMetric;
      const read = argv.items.map((file) => ({ file, records: readItems(file) }));
      const lb = rangeErrorsAsUserErrors(() => meanLeaderboard(read, ITEM_FIELD[metric], { seed: argv.seed, iterations: argv.iterations, confidence }));
      const ctx = { files: argv.items, metric, label: METRIC_LABEL[metric] };
      emit({ report: meanReport(lb, ctx), json: meanJson(lb, ctx) }, argv);
      return;
    }
    const k = count('k', argv.k);
    const n = count('n', argv.n);
    if (k > n) throw new UserError(`--k (${k}) cannot exceed --n (${n})`);
    const confidence = fraction('confidence', argv.confidence, true);
    emit(intervalOutput(k, n, confidence, wilson(k, n, confidence), clopperPearson(k, n, confidence)), argv);
  },
};

// ---- agreement --------------------------------------------------------------------------

interface AgreementArgs {
  a: string;
  b: string;
  systemA?: string;
  systemB?: string;
  seed: number;
  iterations: number;
  confidence: number;
}

const agreement: Sub<AgreementArgs> = {
  command: 'agreement <a> <b>',
  describe: 'Agreement of two per-item label files (JSONL item records or CSV task_id,label): kappa, MCC, accuracy with bootstrap CIs',
  builder: (y) =>
    withReport<AgreementArgs>(
      y
        .positional('a', { type: 'string', demandOption: true, describe: 'First label file (.jsonl item records, or .csv)' })
        .positional('b', { type: 'string', demandOption: true, describe: 'Second label file' })
        .option('system-a', { type: 'string', describe: 'System to read from A when it holds several' })
        .option('system-b', { type: 'string', describe: 'System to read from B when it holds several' })
        .option('seed', { type: 'number', default: 42, describe: 'Bootstrap seed' })
        .option('iterations', { type: 'number', default: 2000, describe: 'Bootstrap resamples' })
        .option('confidence', { type: 'number', default: 0.95, describe: 'Two-sided confidence' }),
    ),
  handler: (argv) => {
    const iterations = count('iterations', argv.iterations);
    if (iterations < 1) throw new UserError('--iterations must be at least 1');
    wholeNumber('seed', argv.seed);
    const confidence = fraction('confidence', argv.confidence, true);
    const la = readLabelFile(argv.a, { system: argv.systemA });
    const lb = readLabelFile(argv.b, { system: argv.systemB });
    const j = joinLabels(la.labels, lb.labels);
    if (j.taskIds.length === 0) {
      throw new UserError(`${argv.a} and ${argv.b} share no task ids (${la.labels.size} and ${lb.labels.size} labelled tasks): check that both use the same ids`);
    }
    const r = agreementWithCI(j.a, j.b, { seed: argv.seed, iterations, confidence });
    emit(agreementOutput(r, { fileA: argv.a, fileB: argv.b, labelsA: la, labelsB: lb, joined: j, seed: argv.seed, iterations, confidence }), argv);
  },
};

// ---- the verb ---------------------------------------------------------------------------

export const statsCommand: CommandModule<object, object> = {
  ...VERBS.stats,
  builder: (y) =>
    y
      .command(gap as unknown as CommandModule<object, object>)
      .command(prevalence as unknown as CommandModule<object, object>)
      .command(detector as unknown as CommandModule<object, object>)
      .command(interval as unknown as CommandModule<object, object>)
      .command(agreement as unknown as CommandModule<object, object>)
      .demandCommand(1, 'Name a statistic: gap, prevalence, detector, interval or agreement'),
  handler: () => {},
};
