import { bootstrapIntervals, type BootstrapOptions } from '../stats/bootstrap.js';
import type { Interval } from '../stats/intervals.js';
import { auc, precisionAtK, tiedShare } from '../stats/ranking.js';
import { disagreementShare } from './review-order.js';
import type { AuditReport } from './pipeline.js';

/**
 * Scores an audit of a benchmark with injected errors (inject.ts) against what was injected:
 * the mutated tasks are the positives, every other task a negative — including the
 * benchmark's own wrong gold, which a good detector also ranks high, so these figures
 * understate its precision. No human label is involved.
 */
export interface DetectorOnInjected {
  name: string;
  /** AUC of the detector's score, injected vs untouched. */
  auc: number;
  /** Share of injected tasks among the k highest scores (k = the injected count). */
  precisionAtK: number;
  /** Share of injected tasks the detector flags, and how many tasks it flags in all. */
  recall: number;
  flagged: number;
  /** Share of tasks whose score another task shares (1 = no ranking beyond the flag). */
  tied: number;
  /** The audit minus this detector (paired bootstrap over tasks); absent for the audit itself. */
  versus?: { auc: Interval; precisionAtK: Interval; recall: Interval };
}

export interface InjectedEvaluation {
  n: number;
  injected: number;
  detectors: DetectorOnInjected[];
}

interface Candidate {
  name: string;
  /** One score per task (higher = more suspicious), or several when the best is picked in hindsight on each resample. */
  scores: number[][];
  flags: boolean[][];
}

const nz = (x: number): number => (Number.isFinite(x) ? x : 0);

/** The audit (review-queue score, flags) against the label model, majority vote under both comparisons and the hindsight-best single agent. */
export function evaluateInjected(report: AuditReport, injectedIds: ReadonlySet<string>, opts?: BootstrapOptions): InjectedEvaluation {
  const truth = report.flags.map((f) => injectedIds.has(f.taskId));
  const n = truth.length;
  const k = truth.filter(Boolean).length;
  const share = (vs: string): number[] => (vs === 'audit' ? report.verdicts.audit : report.verdicts.ex).map((v) => disagreementShare(v));
  const majAudit = share('audit');
  const majEx = share('ex');
  const candidates: Candidate[] = [
    { name: 'sqlboard audit (review-queue score, flags)', scores: [report.flags.map((f) => f.score)], flags: [report.flags.map((f) => f.flagged)] },
    { name: 'label model alone', scores: [Array.from(report.labelModel.posterior)], flags: [Array.from(report.labelModel.posterior, (p) => p > 0.5)] },
    { name: "majority vote (audit's comparison)", scores: [majAudit], flags: [majAudit.map((x) => x > 0.5)] },
    { name: 'majority vote (plain EX)', scores: [majEx], flags: [majEx.map((x) => x > 0.5)] },
    {
      name: 'best single agent in hindsight (plain EX)',
      scores: report.agents.map((_, j) => report.verdicts.ex.map((v) => +(v[j] === 'disagree'))),
      flags: report.agents.map((_, j) => report.verdicts.ex.map((v) => v[j] === 'disagree')),
    },
  ];
  const recallOf = (f: readonly boolean[], idx: ArrayLike<number>): number => {
    let pos = 0;
    let hit = 0;
    for (let r = 0; r < idx.length; r++) {
      const i = idx[r]!;
      if (!truth[i]) continue;
      pos++;
      if (f[i]) hit++;
    }
    return pos > 0 ? hit / pos : NaN;
  };
  /** The candidate's (score, flags) with the best AUC on these items: a fixed detector has one. */
  const pick = (c: Candidate, idx: ArrayLike<number>): number => {
    let best = 0;
    let bestAuc = -Infinity;
    c.scores.forEach((s, j) => {
      const a = nz(auc(s, truth, idx));
      if (a > bestAuc) [best, bestAuc] = [j, a];
    });
    return best;
  };
  const all = Uint32Array.from({ length: n }, (_, i) => i);
  const ours = candidates[0]!;
  const detectors = candidates.map((c, ci): DetectorOnInjected => {
    const j = pick(c, all);
    const name = c.scores.length > 1 ? `${c.name}: ${report.agents[j]}` : c.name;
    const d: DetectorOnInjected = {
      name,
      auc: auc(c.scores[j]!, truth),
      precisionAtK: precisionAtK(c.scores[j]!, truth, k),
      recall: recallOf(c.flags[j]!, all),
      flagged: c.flags[j]!.filter(Boolean).length,
      tied: tiedShare(c.scores[j]!),
    };
    if (ci === 0) return d;
    const [a, p, r] = bootstrapIntervals(
      n,
      3,
      (idx) => {
        const b = pick(c, idx);
        return [
          nz(auc(ours.scores[0]!, truth, idx)) - nz(auc(c.scores[b]!, truth, idx)),
          nz(precisionAtK(ours.scores[0]!, truth, k, idx)) - nz(precisionAtK(c.scores[b]!, truth, k, idx)),
          nz(recallOf(ours.flags[0]!, idx)) - nz(recallOf(c.flags[b]!, idx)),
        ];
      },
      opts,
    );
    const strip = ({ samples: _s, ...iv }: Interval & { samples: Float64Array }): Interval => iv;
    return { ...d, versus: { auc: strip(a!), precisionAtK: strip(p!), recall: strip(r!) } };
  });
  return { n, injected: k, detectors };
}
