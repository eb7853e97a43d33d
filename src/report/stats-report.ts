import type { AgreementResult, DetectorIntervals, DetectorMetrics } from '../stats/agreement.js';
import type { Confusion } from '../stats/confusion.js';
import type { GapResult } from '../stats/gap.js';
import { confidencePercent, type Interval } from '../stats/intervals.js';
import type { JoinedLabels, LabelSet } from '../benchmark/label-files.js';
import type { RoganGladenInput, RoganGladenResult } from '../stats/prevalence.js';
import { formatPoints } from './format.js';
import type { Cell, Column, Report } from './model.js';

/*
 * `sqlboard stats <sub>`: each subcommand's Report (one Quantity / Value / % / Method table) and
 * its `--json` object. JSON carries fractions; undefined statistics (NaN) print as null.
 */

/** What `stats <sub>` hands to emitReport. */
export interface StatsOutput {
  report: Report;
  json: unknown;
}

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

export function gapOutput(r: GapResult): StatsOutput {
  const rows = [
    int('N', r.n),
    int('flawed tasks e', r.flawed),
    frac('error rate e/N', r.errorRate),
    frac('sigma_gap', r.sigmaGap, '2*sqrt(e)/N'),
    num('z (one-sided)', r.z, `Phi^-1(${r.confidence})`),
    frac('threshold g*', r.threshold, 'z*sigma_gap'),
  ];
  const notes = [
    `A gap of less than g* = ${formatPoints(r.threshold, 2, false)} points between two systems is within the noise bound: ${Number(r.flawed.toFixed(1))} wrong golds could, in the worst case, make it (one-sided ${confidencePercent(r.confidence)}%). ` +
      'It bounds annotation noise only, not sampling, and is not a test: within the bound is not a tie, beyond it is not proof of a better system. ' +
      'With per-item results only wrong golds the two systems do not both get right can move their gap: `leaderboard` with verdict files computes each pair\'s own bound.',
  ];
  return { report: report('Gap threshold under annotation noise', { method: r.method }, rows, notes), json: r };
}

export function prevalenceOutput(input: RoganGladenInput, r: RoganGladenResult): StatsOutput {
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
  return { report: report('Calibrated error prevalence', { method: r.method }, rows, notes), json: { ...input, ...r } };
}

export function detectorOutput(c: Confusion, m: DetectorMetrics, intervals: DetectorIntervals, confidence: number): StatsOutput {
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
  return { report: report('Detector metrics', { method: m.method, confidence }, rows, notes), json: { ...c, ...m, confidence, intervals } };
}

export function intervalOutput(k: number, n: number, confidence: number, w: Interval, cp: Interval): StatsOutput {
  const rows = [frac('Wilson', w, w.method), frac('Clopper–Pearson', cp, cp.method)];
  return {
    report: report(`Binomial intervals for ${k}/${n}`, { k, n, confidence }, rows),
    json: { k, n, confidence, estimate: w.estimate, wilson: w, clopperPearson: cp },
  };
}

/** How many one-sided ids the report and JSON list by name. */
const EXAMPLES = 10;

export interface AgreementContext {
  fileA: string;
  fileB: string;
  labelsA: LabelSet;
  labelsB: LabelSet;
  joined: JoinedLabels;
  seed: number;
  iterations: number;
  confidence: number;
}

export function agreementOutput(r: AgreementResult, ctx: AgreementContext): StatsOutput {
  const { fileA, fileB, labelsA: la, labelsB: lb, joined: j } = ctx;
  const c = r.confusion;
  const json = {
    fileA,
    fileB,
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
    seed: ctx.seed,
    iterations: ctx.iterations,
    confidence: ctx.confidence,
    method: r.method,
  };
  const rows = [
    int('n joined', r.n),
    frac('accuracy (labels equal)', r.accuracy, 'share of joined items'),
    num("Cohen's kappa", r.kappa, 'chance-corrected agreement'),
    num('MCC', r.mcc, 'Matthews correlation'),
  ];
  const examples = (ids: string[]): string => `${ids.length}${ids.length ? ` (e.g. ${ids.slice(0, EXAMPLES).join(', ')})` : ''}`;
  const notes = [
    `A: ${fileA} (${la.source}); B: ${fileB} (${lb.source}). Label true/1 = correct.`,
    `Both 1: ${c.tp}; A 1, B 0: ${c.fn}; A 0, B 1: ${c.fp}; both 0: ${c.tn}.`,
    `Only in A: ${examples(j.onlyInA)}; only in B: ${examples(j.onlyInB)}.`,
  ];
  if (la.skipped + lb.skipped > 0) notes.push(`Records without a label skipped: A ${la.skipped}, B ${lb.skipped}.`);
  return { report: report('Label agreement', { method: r.method }, rows, notes), json };
}
