/**
 * THE ONLY MODULE THAT READS LABELS. Everything else in src/audit/ is label-free: it
 * receives AuditInputs (no label field) and produces an AuditReport; this module scores
 * that report — and the baselines built from the same agents — against a hand-labelled
 * sample, after the fact. Nothing here feeds back into flags.
 */
import { InputFileError } from '../errors.js';
import { detectorMetrics, type DetectorMetrics } from '../stats/agreement.js';
import { confusionFrom, type Confusion } from '../stats/confusion.js';
import { detectorDifference, type DetectorDifference } from '../stats/detector-difference.js';
import { readLabelFile } from '../benchmark/label-files.js';
import { adjustForLabelNoise, crossFittedErrorRate, type ErrorRateEstimate, type LabelNoiseAdjusted } from '../stats/error-rate.js';
import { roganGladen } from '../stats/prevalence.js';
import { wilson, type Interval } from '../stats/intervals.js';
import type { BootstrapOptions } from '../stats/bootstrap.js';
import { auc, precisionAtK, rankingDifference, type RankingDifference } from '../stats/ranking.js';
import type { AuditReport } from './pipeline.js';
import { disagreementShare } from './review-order.js';
import type { Verdict } from './types.js';

/** Ground truth: task id → gold is wrong; optional error type per wrong task. */
export interface GoldErrorLabels {
  file: string;
  isError: Map<string, boolean>;
  errorType: Map<string, string>;
}

/** Reads SALUS ground truth (`query_id,label[,error_type]`, label 0 = gold error). */
export function readGoldErrorLabels(file: string): GoldErrorLabels {
  const set = readLabelFile(file, { extraColumns: ['error_type'] });
  const isError = new Map<string, boolean>();
  const errorType = new Map<string, string>();
  for (const [id, correct] of set.labels) {
    isError.set(id, !correct);
    const t = set.extras?.get(id)?.error_type;
    if (t && !correct) errorType.set(id, t);
  }
  return { file, isError, errorType };
}

export interface Scored {
  confusion: Confusion;
  metrics: DetectorMetrics;
}

/** The baselines built from the same agents' verdicts under one comparison. */
export interface Baselines {
  /** Flags a task when more than half of its valid agents disagree with the gold. */
  majority: Scored;
  /** The agent with the best F1 on the labelled sample: an oracle pick, the strongest single-agent baseline. */
  bestSingle: Scored & { agent: string };
  /** The agent a user would pick without labels: the highest share of results agreeing with the gold over all tasks. */
  bestSingleByEx: Scored & { agent: string; ex: number };
  singles: (Scored & { agent: string })[];
}

/** The audit minus each baseline (paired bootstrap over the labelled tasks); the hindsight pick is re-made on every resample. */
export interface Versus {
  majority: DetectorDifference;
  bestSingle: DetectorDifference;
  bestSingleByEx: DetectorDifference;
}

/** How a score orders the labelled tasks: AUC and precision among the k highest (k = the labelled errors). */
export interface RankQuality {
  auc: number;
  precisionAtK: number;
}

export interface Evaluation {
  /** Labelled tasks found among the audited ones. */
  n: number;
  errors: number;
  missing: string[];
  sweep: Scored;
  /** Per labelled error type: how many the flags find, with recall's Wilson interval (SALUS Table 7 gives points only). */
  byErrorType: Record<string, { n: number; detected: number; recall: number; recallInterval?: Interval }>;
  /**
   * Baselines under the audit's own comparison (`audit`) and under plain EX agreement (`ex`,
   * BIRD's set comparison): whether the audit beats majority vote may depend on which.
   */
  baselines: { audit: Baselines; ex: Baselines; labelModel: Scored };
  versus: { audit: Versus; ex: Versus; labelModel: DetectorDifference; compare?: DetectorDifference };
  /** The review-queue score against the label model's P(gold wrong) and the agents' disagreement shares (both comparisons). */
  ranking: {
    k: number;
    audit: RankQuality;
    labelModel: RankQuality;
    majority: { audit: RankQuality; ex: RankQuality };
    versus: { labelModel: RankingDifference; majorityAudit: RankingDifference; majorityEx: RankingDifference };
  };
  /** SALUS's (or any) flags file scored on the same sample. `versus.compare` only when its flags cover every labelled task. */
  compare?: Scored & { file: string; flagged: number; n: number };
  /**
   * The benchmark's error rate: the label model's posterior (as a logit) calibrated on the labels,
   * cross-fitted, plus the labelled sample's out-of-fold residual (stats/error-rate.ts).
   */
  calibrated: ErrorRateEstimate & { labelFree: number; labelNoise?: LabelNoiseAdjusted };
  /** The older Rogan–Gladen estimate from the flags' labelled confusion table, for comparison (wider: it divides by TPR − FPR). */
  roganGladen: ReturnType<typeof roganGladen>;
}

/** The label model's P(gold wrong) as a logit, kept finite (a clamped or saturated posterior is 0 or 1 to machine precision). */
export const posteriorLogit = (p: number): number => {
  const q = Math.min(1 - 1e-6, Math.max(1e-6, p));
  return Math.log(q / (1 - q));
};

/** The calibrated error rate of the audited benchmark (see Evaluation.calibrated); `seed` fixes the folds. */
export function calibratedErrorRate(report: AuditReport, labels: GoldErrorLabels, seed = 1): Evaluation['calibrated'] {
  const pos = new Map(report.flags.map((f, i) => [f.taskId, i]));
  const ids = [...labels.isError.keys()].filter((id) => pos.has(id));
  const est = crossFittedErrorRate(Array.from(report.labelModel.posterior, posteriorLogit), { ids, index: ids.map((id) => pos.get(id)!), y: ids.map((id) => +labels.isError.get(id)!) }, { seed });
  return { ...est, labelFree: report.labelModel.errorPrior };
}

function withLabelNoise(c: Evaluation['calibrated'], labelErrorRate: number | undefined): Evaluation['calibrated'] {
  return labelErrorRate === undefined ? c : { ...c, labelNoise: adjustForLabelNoise(c, labelErrorRate) };
}

function score(ids: readonly string[], truth: Map<string, boolean>, flagged: (id: string) => boolean): Scored {
  const c = confusionFrom(ids.map((id) => truth.get(id)!), ids.map((id) => flagged(id)));
  return { confusion: c, metrics: detectorMetrics(c) };
}

/** `compareFlags`: another detector's flags (readErrorFlags: task id → flagged) and the file they came from. */
export function evaluateAudit(
  report: AuditReport,
  labels: GoldErrorLabels,
  opts: { compareFlags?: { file: string; flags: Map<string, boolean> }; bootstrap?: BootstrapOptions; labelErrorRate?: number } = {},
): Evaluation {
  const pos = new Map(report.flags.map((f, i) => [f.taskId, i]));
  const ids = [...labels.isError.keys()].filter((id) => pos.has(id));
  const missing = [...labels.isError.keys()].filter((id) => !pos.has(id));
  if (ids.length === 0) {
    throw new InputFileError(labels.file, undefined, `none of its ${labels.isError.size} task ids is among the ${report.n} audited tasks`);
  }
  const at = (id: string): number => pos.get(id)!;
  const sweep = score(ids, labels.isError, (id) => report.flags[at(id)]!.flagged);
  const truth = ids.map((id) => labels.isError.get(id)!);
  const ours = ids.map((id) => report.flags[at(id)]!.flagged);
  const vs = (...detectors: ((id: string) => boolean)[]): DetectorDifference => detectorDifference(truth, ours, detectors.map((d) => ids.map(d)), opts.bootstrap);
  const side = (verdicts: Verdict[][]): { baselines: Baselines; versus: Versus } => {
    const majorityFlags = (id: string): boolean => disagreementShare(verdicts[at(id)]!) > 0.5;
    const singleFlags = (j: number) => (id: string): boolean => verdicts[at(id)]![j] === 'disagree';
    const singles = report.agents.map((agent, j) => ({ agent, ...score(ids, labels.isError, singleFlags(j)) }));
    // "Best single" is chosen with the labels: the strongest baseline an oracle could pick.
    const bestSingle = singles.reduce((a, b) => (nz(b.metrics.f1) > nz(a.metrics.f1) ? b : a), singles[0] ?? { agent: 'none', ...score([], labels.isError, () => false) });
    const ex = report.agents.map((_, j) => verdicts.filter((v) => v[j] === 'agree').length / Math.max(1, report.n));
    const byEx = ex.reduce((a, v, j) => (v > ex[a]! ? j : a), 0);
    return {
      baselines: { majority: score(ids, labels.isError, majorityFlags), bestSingle, bestSingleByEx: { ...singles[byEx]!, ex: ex[byEx]! }, singles },
      versus: { majority: vs(majorityFlags), bestSingle: vs(...report.agents.map((_, j) => singleFlags(j))), bestSingleByEx: vs(singleFlags(byEx)) },
    };
  };
  const audit = side(report.verdicts.audit);
  const exSide = side(report.verdicts.ex);
  const labelModelFlags = (id: string): boolean => report.labelModel.posterior[at(id)]! > 0.5;
  const byErrorType: Evaluation['byErrorType'] = {};
  for (const id of ids) {
    const t = labels.errorType.get(id);
    if (!t) continue;
    const e = (byErrorType[t] ??= { n: 0, detected: 0, recall: 0 });
    e.n++;
    if (report.flags[at(id)]!.flagged) e.detected++;
  }
  for (const e of Object.values(byErrorType)) {
    e.recall = e.detected / e.n;
    e.recallInterval = wilson(e.detected, e.n);
  }
  const k = truth.filter(Boolean).length;
  const rankScores = {
    audit: ids.map((id) => report.flags[at(id)]!.score),
    labelModel: ids.map((id) => report.labelModel.posterior[at(id)]!),
    majorityAudit: ids.map((id) => disagreementShare(report.verdicts.audit[at(id)]!)),
    majorityEx: ids.map((id) => disagreementShare(report.verdicts.ex[at(id)]!)),
  };
  const quality = (s: readonly number[]): RankQuality => ({ auc: auc(s, truth), precisionAtK: precisionAtK(s, truth, k) });
  const rankVs = (s: readonly number[]): RankingDifference => rankingDifference(truth, rankScores.audit, [s], k, opts.bootstrap);
  const c = sweep.confusion;
  const out: Evaluation = {
    n: ids.length,
    errors: k,
    missing,
    sweep,
    byErrorType,
    baselines: { audit: audit.baselines, ex: exSide.baselines, labelModel: score(ids, labels.isError, labelModelFlags) },
    versus: { audit: audit.versus, ex: exSide.versus, labelModel: vs(labelModelFlags) },
    ranking: {
      k,
      audit: quality(rankScores.audit),
      labelModel: quality(rankScores.labelModel),
      majority: { audit: quality(rankScores.majorityAudit), ex: quality(rankScores.majorityEx) },
      versus: { labelModel: rankVs(rankScores.labelModel), majorityAudit: rankVs(rankScores.majorityAudit), majorityEx: rankVs(rankScores.majorityEx) },
    },
    calibrated: withLabelNoise(calibratedErrorRate(report, labels), opts.labelErrorRate),
    roganGladen: roganGladen({ n: report.n, flagged: report.flagged, tp: c.tp, fp: c.fp, fn: c.fn, tn: c.tn }),
  };
  if (opts.compareFlags) {
    const other = opts.compareFlags.flags;
    const inSample = ids.filter((id) => other.has(id));
    out.compare = {
      file: opts.compareFlags.file,
      flagged: [...other.values()].filter(Boolean).length,
      n: other.size,
      ...score(inSample, labels.isError, (id) => other.get(id)!),
    };
    if (inSample.length === ids.length) out.versus.compare = vs((id) => other.get(id)!);
  }
  return out;
}

const nz = (x: number): number => (Number.isNaN(x) ? -1 : x);
