import type { Argv, CommandModule } from 'yargs';
import { rangeErrorsAsUserErrors, UserError } from '../errors.js';
import { addReportOptions, emitReport, type ReportOptions } from '../report/output.js';
import type { Cell, Column, Report } from '../report/model.js';
import { agreementWithCI, detectorMetrics } from '../stats/agreement.js';
import { gapThreshold } from '../stats/gap.js';
import { clopperPearson, confidencePercent, wilson, type Interval } from '../stats/intervals.js';
import { joinLabels, readLabelFile } from '../stats/label-files.js';
import { roganGladen } from '../stats/prevalence.js';

/*
 * `sqlboard stats <sub>`: thin wrappers over src/stats. Each subcommand validates its flags
 * (UserError naming the flag), calls one core function, and hands a Report plus the JSON
 * object to emitReport. JSON carries fractions; undefined statistics (NaN) print as null.
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

// ---- report helpers ---------------------------------------------------------------------

interface Row {
  quantity: string;
  /** Counts are strings so the 4-decimal column does not print "1534.0000". */
  value?: number | Interval | string;
  percent?: number | Interval;
  method?: string;
}

const COLUMNS: Column[] = [
  { key: 'quantity', header: 'Quantity' },
  { key: 'value', header: 'Value', format: 'fixed', digits: 4 },
  { key: 'percent', header: '%', format: 'percent', digits: 2 },
  { key: 'method', header: 'Method' },
];

/** A fraction-valued row shows both the fraction and the percentage. */
const frac = (quantity: string, v: number | Interval, method?: string): Row => ({ quantity, value: v, percent: v, method });
const num = (quantity: string, v: number | Interval, method?: string): Row => ({ quantity, value: v, method });
const int = (quantity: string, v: number): Row => ({ quantity, value: Number.isInteger(v) ? String(v) : v });

function report(title: string, meta: Record<string, Cell>, rows: Row[], notes: string[] = []): Report {
  return {
    title,
    meta,
    sections: [{ title: 'Results', notes, table: { columns: COLUMNS, rows: rows as unknown as Record<string, Cell>[] } }],
  };
}

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
    const rows = [
      int('N', r.n),
      int('flawed tasks e', r.flawed),
      frac('error rate e/N', r.errorRate),
      frac('sigma_gap', r.sigmaGap, '2*sqrt(e)/N'),
      num('z (one-sided)', r.z, `Phi^-1(${r.confidence})`),
      frac('threshold g*', r.threshold, 'z*sigma_gap'),
    ];
    const notes = [`Two systems whose accuracies differ by less than g* = ${(r.threshold * 100).toFixed(2)} points cannot be told apart at ${confidencePercent(r.confidence)}%.`];
    emitReport(report('Gap threshold under annotation noise', { method: r.method }, rows, notes), r, argv);
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
    const pct = `${confidencePercent(r.confidence)}%`;
    const rows = [
      frac('flag rate', r.flagRate, `${input.flagged}/${input.n}`),
      frac('TPR', r.tpr, `tp/(tp+fn) = ${input.tp}/${input.tp + input.fn}`),
      frac('FPR', r.fpr, `fp/(fp+tn) = ${input.fp}/${input.fp + input.tn}`),
      frac(`error prevalence [${pct} CI]`, { estimate: r.estimate, low: r.ciLow, high: r.ciHigh, method: 'delta method' }, '(flag rate − FPR)/(TPR − FPR)'),
      num('standard error', r.se, 'delta method'),
    ];
    const notes: string[] = [];
    if (r.reason) notes.push(`Undefined: ${r.reason}.`);
    if (r.clipped) notes.push(`Clipped to [0, 1] (raw estimate ${r.rawEstimate.toFixed(4)}).`);
    emitReport(report('Calibrated error prevalence', { method: r.method }, rows, notes), { ...input, ...r }, argv);
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
    const m = detectorMetrics(c);
    // Wilson CIs for the four proportions, so a small labelled sample shows its uncertainty.
    const intervals = {
      precision: wilson(c.tp, c.tp + c.fp, confidence),
      recall: wilson(c.tp, c.tp + c.fn, confidence),
      specificity: wilson(c.tn, c.tn + c.fp, confidence),
      accuracy: wilson(c.tp + c.tn, m.n, confidence),
    };
    // wilson() gives estimate NaN for an empty denominator, matching detectorMetrics.
    const rows = [
      int('n', m.n),
      frac('precision', intervals.precision, 'tp/(tp+fp), Wilson CI'),
      frac('recall', intervals.recall, 'tp/(tp+fn), Wilson CI'),
      frac('F1', m.f1, '2tp/(2tp+fp+fn)'),
      frac('specificity', intervals.specificity, 'tn/(tn+fp), Wilson CI'),
      frac('balanced accuracy', m.balancedAccuracy, '(recall+specificity)/2'),
      frac('accuracy', intervals.accuracy, '(tp+tn)/n, Wilson CI'),
      num('MCC', m.mcc, 'Matthews correlation'),
      frac('prevalence p', m.prevalence, '(tp+fn)/n'),
      frac('flag rate q', m.flagRate, '(tp+fp)/n'),
      frac('floor: flag everything F1', m.floorF1, '2p/(1+p)'),
      frac('floor: random flagging F1', m.randomF1, '2pq/(p+q)'),
    ];
    const notes = ['Undefined ratios (zero denominators) show as – and are null in --json.'];
    emitReport(report('Detector metrics', { method: m.method, confidence }, rows, notes), { ...c, ...m, confidence, intervals }, argv);
  },
};

// ---- interval ---------------------------------------------------------------------------

interface IntervalArgs {
  k?: number;
  n?: number;
  confidence: number;
}

const interval: Sub<IntervalArgs> = {
  command: 'interval',
  describe: 'Wilson and Clopper–Pearson intervals for K successes in N trials',
  builder: (y) =>
    withReport<IntervalArgs>(
      y
        .option('k', { type: 'number', describe: 'Successes' })
        .option('n', { type: 'number', describe: 'Trials' })
        .option('confidence', { type: 'number', default: 0.95, describe: 'Two-sided confidence' }),
    ),
  handler: (argv) => {
    const k = count('k', argv.k);
    const n = count('n', argv.n);
    if (k > n) throw new UserError(`--k (${k}) cannot exceed --n (${n})`);
    const confidence = fraction('confidence', argv.confidence, true);
    const w = wilson(k, n, confidence);
    const cp = clopperPearson(k, n, confidence);
    const rows = [frac('Wilson', w, w.method), frac('Clopper–Pearson', cp, cp.method)];
    emitReport(report(`Binomial intervals for ${k}/${n}`, { k, n, confidence }, rows), { k, n, confidence, estimate: w.estimate, wilson: w, clopperPearson: cp }, argv);
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

const EXAMPLES = 10;

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
    if (!Number.isInteger(argv.seed)) throw new UserError(`--seed must be a whole number (got ${argv.seed})`);
    const confidence = fraction('confidence', argv.confidence, true);
    const la = readLabelFile(argv.a, { system: argv.systemA });
    const lb = readLabelFile(argv.b, { system: argv.systemB });
    const j = joinLabels(la.labels, lb.labels);
    if (j.taskIds.length === 0) {
      throw new UserError(`${argv.a} and ${argv.b} share no task ids (${la.labels.size} and ${lb.labels.size} labelled tasks): check that both use the same ids`);
    }
    const r = agreementWithCI(j.a, j.b, { seed: argv.seed, iterations, confidence });
    const c = r.confusion;
    const json = {
      fileA: argv.a,
      fileB: argv.b,
      sourceA: la.source,
      sourceB: lb.source,
      n: r.n,
      onlyInA: j.onlyInA.length,
      onlyInB: j.onlyInB.length,
      onlyInAExamples: j.onlyInA.slice(0, EXAMPLES),
      onlyInBExamples: j.onlyInB.slice(0, EXAMPLES),
      skippedA: la.skipped,
      skippedB: lb.skipped,
      // Labels are true = correct / 1; the table counts (A label, B label) pairs.
      table: { bothTrue: c.tp, aFalseBTrue: c.fp, aTrueBFalse: c.fn, bothFalse: c.tn },
      kappa: r.kappa,
      mcc: r.mcc,
      accuracy: r.accuracy,
      seed: argv.seed,
      iterations,
      confidence,
      method: r.method,
    };
    const rows = [
      int('n joined', r.n),
      frac('accuracy (labels equal)', r.accuracy, 'share of joined items'),
      num("Cohen's kappa", r.kappa, 'chance-corrected agreement'),
      num('MCC', r.mcc, 'Matthews correlation'),
    ];
    const notes = [
      `A: ${argv.a} (${la.source}); B: ${argv.b} (${lb.source}). Label true/1 = correct.`,
      `Both 1: ${c.tp}; A 1, B 0: ${c.fn}; A 0, B 1: ${c.fp}; both 0: ${c.tn}.`,
      `Only in A: ${j.onlyInA.length}${j.onlyInA.length ? ` (e.g. ${j.onlyInA.slice(0, EXAMPLES).join(', ')})` : ''}; only in B: ${j.onlyInB.length}${j.onlyInB.length ? ` (e.g. ${j.onlyInB.slice(0, EXAMPLES).join(', ')})` : ''}.`,
    ];
    if (la.skipped + lb.skipped > 0) notes.push(`Records without a label skipped: A ${la.skipped}, B ${lb.skipped}.`);
    emitReport(report('Label agreement', { method: r.method }, rows, notes), json, argv);
  },
};

// ---- the verb ---------------------------------------------------------------------------

export const statsCommand: CommandModule<object, object> = {
  command: 'stats',
  describe: 'Noise-aware statistics: gap threshold, calibrated prevalence, detector metrics, intervals, agreement',
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
