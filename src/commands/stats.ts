import type { Argv, CommandModule } from 'yargs';
import { emitReport, type ReportOptions } from '../report/output.js';
import { addReportOptions, checkOutputs, type PathOptions } from './report-options.js';
import { stats } from '../api/stats.js';
import type { CommandResult } from '../api/types.js';
import type { ContinuousMetric } from '../execution/metric-means.js';
import { apiOptions } from './api-options.js';
import { VERBS } from './verbs.js';

/*
 * `sqlboard stats <sub>`: each subcommand parses its flags, calls `stats` (src/api/stats.ts, which
 * checks them and computes) and emits the Report and JSON object it returns.
 */

// ---- output -----------------------------------------------------------------------------

/** Checks the outputs against the input files before computing (`compute`), then emits. */
const emit = (argv: ReportOptions, inputs: PathOptions, compute: () => CommandResult): void => {
  checkOutputs(argv, { inputs });
  const out = compute();
  emitReport(out.report, out.json, argv);
};

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
  handler: (argv) => emit(argv, {}, () => stats({ ...apiOptions(argv), statistic: 'gap' })),
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
  handler: (argv) => emit(argv, {}, () => stats({ ...apiOptions(argv), statistic: 'prevalence' })),
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
  handler: (argv) => emit(argv, {}, () => stats({ ...apiOptions(argv), statistic: 'detector' })),
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
  handler: (argv) => emit(argv, { '--items': argv.items }, () => stats({ ...apiOptions(argv), statistic: 'interval', metric: argv.metric as ContinuousMetric | undefined })),
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
  handler: (argv) => emit(argv, { 'label file': [argv.a, argv.b] }, () => stats({ ...apiOptions(argv), statistic: 'agreement' })),
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
