import type { Argv, CommandModule } from 'yargs';
import type { ReportOptions } from '../report/output.js';
import { addReportOptions } from './report-options.js';
import type { PathOptions } from './check-outputs.js';
import { AGREEMENT_OPTIONS, DETECTOR_OPTIONS, GAP_OPTIONS, INTERVAL_OPTIONS, PREVALENCE_OPTIONS } from '../api/stats-options.js';
import type { stats } from '../api/stats.js';
import type { ParsedOptions } from '../api/option-table.js';
import { addOptionTable } from './option-table.js';
import type { CommandResult } from '../api/types.js';
import { apiOptions } from './api-options.js';
import { VERBS } from './verbs.js';
import { examplesText, withExamples } from './examples.js';

/*
 * `sqlboard stats <sub>`: each subcommand parses its flags, calls `stats` (src/api/stats.ts, which
 * checks them and computes) and emits the Report and JSON object it returns.
 */

// ---- output -----------------------------------------------------------------------------

/**
 * Checks the outputs against the input files before computing (`compute`), then emits; stats-run.ts
 * (the statistics and the renderers) is loaded only to run a subcommand, not for its help.
 */
const emit = async (argv: ReportOptions, inputs: PathOptions, compute: (statistics: typeof stats) => CommandResult): Promise<void> =>
  (await import('./stats-run.js')).emitStatistic(argv, inputs, compute);

type Sub<A> = CommandModule<object, A & ReportOptions>;
const withReport = <A>(y: Argv<object>): Argv<A & ReportOptions> => addReportOptions(y) as unknown as Argv<A & ReportOptions>;

// ---- gap --------------------------------------------------------------------------------

type GapArgs = ParsedOptions<typeof GAP_OPTIONS>;

const gap: Sub<GapArgs> = {
  command: 'gap',
  describe: "SALUS's noise bound on accuracy gaps: sigma_gap = 2*sqrt(e)/N and threshold g* = z*sigma_gap",
  builder: (y) => withExamples(withReport<GapArgs>(addOptionTable(y, GAP_OPTIONS)), 'stats gap'),
  handler: (argv) => emit(argv, {}, (statistics) => statistics({ ...apiOptions(argv), statistic: 'gap' })),
};

// ---- prevalence -------------------------------------------------------------------------

type PrevalenceArgs = ParsedOptions<typeof PREVALENCE_OPTIONS>;

const prevalence: Sub<PrevalenceArgs> = {
  command: 'prevalence',
  describe: 'Rogan–Gladen calibrated error rate from a flag rate and the detector’s labelled confusion table',
  builder: (y) => withExamples(withReport<PrevalenceArgs>(addOptionTable(y, PREVALENCE_OPTIONS)), 'stats prevalence'),
  handler: (argv) => emit(argv, {}, (statistics) => statistics({ ...apiOptions(argv), statistic: 'prevalence' })),
};

// ---- detector ---------------------------------------------------------------------------

type DetectorArgs = ParsedOptions<typeof DETECTOR_OPTIONS>;

const detector: Sub<DetectorArgs> = {
  command: 'detector',
  describe: 'Error-detector quality (positive = error) with its flag-everything and random floors',
  builder: (y) => withExamples(withReport<DetectorArgs>(addOptionTable(y, DETECTOR_OPTIONS)), 'stats detector'),
  handler: (argv) => emit(argv, {}, (statistics) => statistics({ ...apiOptions(argv), statistic: 'detector' })),
};

// ---- interval ---------------------------------------------------------------------------

type IntervalArgs = ParsedOptions<typeof INTERVAL_OPTIONS>;

const interval: Sub<IntervalArgs> = {
  command: 'interval',
  describe: 'Wilson and Clopper–Pearson intervals for K successes in N trials; or bootstrap intervals of a continuous metric from score --items',
  builder: (y) => withExamples(withReport<IntervalArgs>(addOptionTable(y, INTERVAL_OPTIONS)), 'stats interval'),
  handler: (argv) => emit(argv, { '--items': argv.items }, (statistics) => statistics({ ...apiOptions(argv), statistic: 'interval' })),
};

// ---- agreement --------------------------------------------------------------------------

type AgreementArgs = ParsedOptions<typeof AGREEMENT_OPTIONS> & { a: string; b: string };

const agreement: Sub<AgreementArgs> = {
  command: 'agreement <a> <b>',
  describe: 'Agreement of two per-item label files (JSONL item records or CSV task_id,label): kappa, MCC, accuracy with bootstrap CIs',
  builder: (y) =>
    withReport<AgreementArgs>(
      addOptionTable(
        y
          .positional('a', { type: 'string', demandOption: true, describe: 'First label file (.jsonl item records, or .csv)' })
          .positional('b', { type: 'string', demandOption: true, describe: 'Second label file' }),
        AGREEMENT_OPTIONS,
      ),
    ).epilogue(examplesText('stats agreement')),
  handler: (argv) => emit(argv, { 'label file': [argv.a, argv.b] }, (statistics) => statistics({ ...apiOptions(argv), statistic: 'agreement' })),
};

// ---- the verb ---------------------------------------------------------------------------

/** The subcommands, in help order (docs/commands/stats.md lists them from here). */
export const STATS_SUBCOMMANDS = [
  { command: gap.command as string, describe: gap.describe as string, options: GAP_OPTIONS },
  { command: prevalence.command as string, describe: prevalence.describe as string, options: PREVALENCE_OPTIONS },
  { command: detector.command as string, describe: detector.describe as string, options: DETECTOR_OPTIONS },
  { command: interval.command as string, describe: interval.describe as string, options: INTERVAL_OPTIONS },
  { command: agreement.command as string, describe: agreement.describe as string, options: AGREEMENT_OPTIONS },
];

export const statsCommand: CommandModule<object, object> = {
  ...VERBS.stats,
  builder: (y) =>
    withExamples(y, 'stats')
      .command(gap as unknown as CommandModule<object, object>)
      .command(prevalence as unknown as CommandModule<object, object>)
      .command(detector as unknown as CommandModule<object, object>)
      .command(interval as unknown as CommandModule<object, object>)
      .command(agreement as unknown as CommandModule<object, object>)
      .demandCommand(1, 'Name a statistic: gap, prevalence, detector, interval or agreement'),
  handler: () => {},
};
