import { count, fraction, refuse, whole, type OptionCheck } from './option-checks.js';
import type { OptionTable } from './option-table.js';

/** A count every statistic needs, and the confidence of its intervals. */
const needed = count(true);
const CONFIDENCE = { type: 'number', default: 0.95, checks: [fraction(true)] } as const;

/** `--NAME (v) cannot exceed --n (n)`: a part larger than the whole. */
const notAboveN: OptionCheck = (v, o, flag) => (typeof v === 'number' && typeof o.n === 'number' && v > o.n ? `--${flag} (${v}) cannot exceed --n (${o.n})` : undefined);

/** The confusion table of `stats prevalence` and `stats detector`. */
const CONFUSION_OPTIONS = {
  tp: { type: 'number', describe: 'Labelled errors the detector flagged', checks: [needed] },
  fp: { type: 'number', describe: 'Labelled correct items it flagged', checks: [needed] },
  fn: { type: 'number', describe: 'Labelled errors it missed', checks: [needed] },
  tn: { type: 'number', describe: 'Labelled correct items it passed', checks: [needed] },
} as const satisfies OptionTable;

/** `sqlboard stats gap`'s options: SALUS's noise bound g* from N and e (or e/N). */
export const GAP_OPTIONS = {
  n: { type: 'number', describe: 'Benchmark size N (tasks)', checks: [needed] },
  flawed: {
    type: 'number',
    describe: 'e: tasks with wrong gold',
    checks: [refuse((flawed, o) => (flawed === undefined) === (o.errorRate === undefined), 'give exactly one of --flawed E (a count) and --error-rate R (a fraction)'), count(false), notAboveN],
  },
  'error-rate': { type: 'number', describe: 'e/N as a fraction (instead of --flawed)', checks: [fraction(false)] },
  confidence: { ...CONFIDENCE, describe: 'One-sided confidence for g*' },
} as const satisfies OptionTable;

/** `sqlboard stats prevalence`'s options: Rogan–Gladen calibrated error rate. */
export const PREVALENCE_OPTIONS = {
  n: { type: 'number', describe: 'N: items the detector ran on', checks: [needed] },
  flagged: { type: 'number', describe: 'Items it flagged among N', checks: [needed, notAboveN] },
  ...CONFUSION_OPTIONS,
  confidence: { ...CONFIDENCE, describe: 'Two-sided confidence of the CI' },
} as const satisfies OptionTable;

/** `sqlboard stats detector`'s options: error-detector quality from its confusion table. */
export const DETECTOR_OPTIONS = {
  ...CONFUSION_OPTIONS,
  confidence: { ...CONFIDENCE, describe: 'Two-sided confidence of the Wilson CIs' },
} as const satisfies OptionTable;

/** K and N are needed unless --items asks for bootstrap intervals instead. */
const neededWithoutItems: OptionCheck = (v, o, flag) => (o.items === undefined ? needed(v, o, flag) : undefined);

/** `sqlboard stats interval`'s options: Wilson and Clopper–Pearson intervals for k of n, or bootstrap intervals of a metric. */
export const INTERVAL_OPTIONS = {
  k: { type: 'number', describe: 'Successes', checks: [neededWithoutItems] },
  n: {
    type: 'number',
    describe: 'Trials',
    checks: [neededWithoutItems, (n, o) => (o.items === undefined && (o.k as number) > (n as number) ? `--k (${String(o.k)}) cannot exceed --n (${String(n)})` : undefined)],
  },
  confidence: { ...CONFIDENCE, describe: 'Two-sided confidence' },
  items: {
    type: 'string',
    array: true,
    describe: 'Per-item files of score --items: intervals of --metric per system instead of K/N',
    checks: [refuse((items, o) => items !== undefined && o.metric === undefined, '--items needs --metric soft-f1, ves or r-ves (for EX and EM use --k/--n or leaderboard)')],
  },
  metric: { choices: ['soft-f1', 'ves', 'r-ves'], describe: 'With --items: the continuous metric (percentile bootstrap of its mean)' },
  seed: { type: 'number', default: 42, describe: 'With --items: bootstrap seed' },
  iterations: { type: 'number', default: 2000, describe: 'With --items: bootstrap resamples' },
} as const satisfies OptionTable;

/** `sqlboard stats agreement`'s options (besides its two label files): agreement of two per-item label files. */
export const AGREEMENT_OPTIONS = {
  'system-a': { type: 'string', describe: 'System to read from A when it holds several' },
  'system-b': { type: 'string', describe: 'System to read from B when it holds several' },
  seed: { type: 'number', default: 42, describe: 'Bootstrap seed', checks: [whole] },
  iterations: { type: 'number', default: 2000, describe: 'Bootstrap resamples', checks: [count(false), refuse((n) => (n as number) < 1, '--iterations must be at least 1')] },
  confidence: { ...CONFIDENCE, describe: 'Two-sided confidence' },
} as const satisfies OptionTable;
