import { detectorMetrics, mcc } from '../stats/agreement.js';
import { bootstrapInterval } from '../stats/bootstrap.js';
import { cellCodes, confusionFrom, tableOf } from '../stats/confusion.js';
import type { Interval } from '../stats/intervals.js';
import { createRng } from '../stats/rng.js';
import { CANDIDATES, crossFittedPlane, cutAtPrevalence, type PlaneConfig } from './decision-plane.js';
import { highConfidenceSet } from './high-confidence.js';
import { labelStage, planeData } from './label-stage.js';
import type { AuditInputs } from './types.js';

/**
 * Chooses between the label model alone and the decision plane's candidates without labels
 * and without circularity. The agents are split in two halves (a family of dependent agents
 * stays in one half). For each half, every candidate is built from that half's agents only:
 * the label model on them, and the plane trained on that label model's high-confidence
 * pseudo-labels, cross-fitted over task folds (a task's probability comes from models that
 * did not train on it), cut at the same prevalence. Each candidate's flags are then scored
 * against the flags of a label model fitted on the *other* half's agents: a reference whose
 * agent errors are, given the true class, independent of the candidate's. The score is
 * averaged over both halves. The best plane candidate is chosen only when its lead in MCC over
 * the label model has a 95% paired-bootstrap interval (over tasks) above 0: the plane must
 * agree better with agents it never saw by more than chance; otherwise the label model stands.
 *
 * What is not held out: the gold-only facts (decisive probes, SQL patterns, question intent)
 * vote in both halves' label models, and so help every candidate alike.
 */
export interface CandidateScore {
  /** 'label model' or the plane configuration's name. */
  candidate: string;
  config: PlaneConfig | null;
  /** Mean over the halves of F1 and MCC against the other half's label model's flags. */
  f1: number;
  mcc: number;
}

export interface PlaneSelection {
  /** The chosen plane configuration; null when the label model alone is chosen. */
  config: PlaneConfig | null;
  scores: CandidateScore[];
  /** The agents (indices) of each half. */
  halves: number[][];
  /** The best plane candidate's MCC minus the label model's (mean over halves), paired bootstrap over tasks. */
  lead: Interval & { candidate: string };
}

export const configName = (c: PlaneConfig): string => `plane ${c.aggregation}, depth ${c.depth}`;

/** Splits the families in two halves of about equal agent counts: seeded order, each family to the smaller half. */
function halves(families: readonly (readonly number[])[], seed: number): number[][] {
  const rng = createRng(seed);
  const order = families.map((_, g) => g);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  // Largest families first (stable in the seeded order), so the halves balance.
  order.sort((a, b) => families[b]!.length - families[a]!.length);
  const out: number[][] = [[], []];
  for (const g of order) (out[0]!.length <= out[1]!.length ? out[0]! : out[1]!).push(...families[g]!);
  return out.map((h) => h.sort((a, b) => a - b));
}

const subset = (inputs: AuditInputs, agents: readonly number[]): AuditInputs => ({ ...inputs, agents: agents.map((a) => inputs.agents[a]!) });

export function selectPlane(inputs: AuditInputs, families: readonly (readonly number[])[], seed: number, k?: number): PlaneSelection | null {
  const split = halves(families, seed);
  // Each half needs two agents at least: one agent cannot disagree with another.
  if (split.some((h) => h.length < 2)) return null;
  const names = ['label model', ...CANDIDATES.map(configName)];
  const sum = names.map(() => ({ f1: 0, mcc: 0 }));
  const stages = split.map((h) => labelStage(subset(inputs, h)));
  // Per half, each candidate's cells against the reference (for the bootstrap of the lead).
  const cells: Uint8Array[][] = [];
  for (let h = 0; h < 2; h++) {
    const own = stages[h]!;
    const ref = Array.from(stages[1 - h]!.lm.posterior, (p) => p > 0.5);
    const lmFlags = Array.from(own.lm.posterior, (p) => p > 0.5);
    const flags: boolean[][] = [lmFlags];
    const hc = highConfidenceSet(own.lm.posterior, k, own.decisive);
    const bothClasses = hc.y.includes(0) && hc.y.includes(1);
    const probs = bothClasses ? crossFittedPlane(planeData(own, split[h]!.length), hc.index, hc.y, seed) : CANDIDATES.map(() => null);
    for (const p of probs) {
      if (!p) {
        flags.push(lmFlags);
        continue;
      }
      const cut = cutAtPrevalence(p, own.lm.posterior, own.lm.errorPrior).flagged;
      flags.push(cut.map((f, i) => f || own.decisive[i]!));
    }
    cells.push(flags.map((f) => cellCodes(ref, f)));
    flags.forEach((f, c) => {
      const m = detectorMetrics(confusionFrom(ref, f));
      sum[c]!.f1 += (m.f1 || 0) / 2;
      sum[c]!.mcc += (m.mcc || 0) / 2;
    });
  }
  const scores = names.map((candidate, c) => ({ candidate, config: c === 0 ? null : CANDIDATES[c - 1]!, ...sum[c]! }));
  let best = 1;
  scores.forEach((s, c) => {
    if (c > 0 && s.mcc > scores[best]!.mcc + 1e-12) best = c;
  });
  const meanMcc = (c: number, idx: Uint32Array): number => cells.reduce((a, half) => a + (mcc(tableOf(half[c]!, idx)) || 0) / 2, 0);
  const { samples: _s, ...lead } = bootstrapInterval(inputs.tasks.length, (idx) => meanMcc(best, idx) - meanMcc(0, idx), { seed, iterations: 1000 });
  return { config: lead.low > 0 ? scores[best]!.config : null, scores, halves: split, lead: { ...lead, candidate: scores[best]!.candidate } };
}
