import { fitCart, predictCart, type CartNode } from './cart.js';
import { stratifiedFolds } from './folds.js';
import { fitLogistic, predictLogistic, sigmoid } from '../stats/logistic.js';
import type { Verdict } from './types.js';

/**
 * The decision plane: per-agent reliability models on the 12 gold-SQL features and the agent's
 * own result features (agent-features.ts), a fallback task-level model, and three ways (weighted,
 * top-k, fused) to aggregate the agents' verdicts. Which combination (if any: the label model
 * alone is a candidate too) is chosen by agreement with held-out agents (plane-selection.ts),
 * never by how well it reproduces the pseudo-labels its own votes made.
 */
export type Aggregation = 'weighted' | 'topk3' | 'topk5' | 'fusion';

export interface PlaneConfig {
  depth: 2 | 4;
  aggregation: Aggregation;
}

export const CANDIDATES: readonly PlaneConfig[] = ([2, 4] as const).flatMap((depth) =>
  (['weighted', 'topk3', 'topk5', 'fusion'] as const).map((aggregation) => ({ depth, aggregation })),
);

export interface PlaneData {
  /** Gold-SQL features per task. */
  features: number[][];
  /** Verdict per task per agent. */
  verdicts: Verdict[][];
  /** Per task, per agent: how its result relates to the gold's (agent-features.ts). */
  agentFeatures: number[][][];
  /** Per agent, the weight of its vote in the weighted score (default 1): dependent agents share one vote (dependency.ts). */
  agentWeights?: readonly number[];
}

interface Trained {
  reliability: (CartNode | number)[];
  fallback: CartNode;
  fusion?: ReturnType<typeof fitLogistic>;
}

export interface PlaneOutput {
  config: PlaneConfig;
  probability: number[];
  /** Reliability of each agent's verdict on each task, from the chosen depth. */
  reliability: number[][];
}

const agentRow = (data: PlaneData, i: number, j: number): number[] => [...data.features[i]!, ...data.agentFeatures[i]![j]!];
/** The fallback task model's row: the gold's features, the agents' dissent share and how many agents are valid. */
const taskRow = (data: PlaneData, i: number): number[] => {
  const vs = data.verdicts[i]!;
  const valid = vs.filter((v) => v !== 'invalid').length;
  const dis = vs.filter((v) => v === 'disagree').length;
  return [...data.features[i]!, valid > 0 ? dis / valid : 0.5, valid];
};

function train(data: PlaneData, rows: readonly number[], y: readonly number[], depth: number, fusion: boolean): Trained {
  const nAgents = data.verdicts[0]?.length ?? 0;
  const reliability: (CartNode | number)[] = [];
  for (let j = 0; j < nAgents; j++) {
    const X: number[][] = [];
    const t: number[] = [];
    rows.forEach((i, r) => {
      const v = data.verdicts[i]![j]!;
      if (v === 'invalid') return;
      X.push(agentRow(data, i, j));
      // The agent is right when its verdict matches the pseudo-label.
      t.push(+((v === 'disagree') === (y[r] === 1)));
    });
    reliability.push(X.length >= 10 ? fitCart(X, t, { maxDepth: depth }) : (t.reduce((a, b) => a + b, 0) + 1) / (t.length + 2));
  }
  const fallback = fitCart(rows.map((i) => taskRow(data, i)), y, { maxDepth: depth });
  const trained: Trained = { reliability, fallback };
  if (fusion) {
    const Xf = rows.map((i) => fusionInputs(trained, data, i));
    trained.fusion = fitLogistic(Xf, y);
  }
  return trained;
}

function reliabilityOf(t: Trained, data: PlaneData, i: number, j: number): number {
  const m = t.reliability[j]!;
  return typeof m === 'number' ? m : predictCart(m, agentRow(data, i, j));
}

function weightedScore(t: Trained, data: PlaneData, i: number): number {
  let s = 0;
  data.verdicts[i]!.forEach((v, j) => {
    if (v === 'invalid') return;
    const r = Math.min(0.99, Math.max(0.01, reliabilityOf(t, data, i, j)));
    // Log-odds weights make the weighted vote the optimal rule for independent voters;
    // a family of dependent agents is one voter, so its members share that weight.
    const w = Math.log(r / (1 - r)) * (data.agentWeights?.[j] ?? 1);
    s += v === 'disagree' ? w : -w;
  });
  return s;
}

function fusionInputs(t: Trained, data: PlaneData, i: number): number[] {
  return [weightedScore(t, data, i), predictCart(t.fallback, taskRow(data, i))];
}

function predict(t: Trained, data: PlaneData, i: number, agg: Aggregation): number {
  const vs = data.verdicts[i]!;
  if (!vs.some((v) => v !== 'invalid')) return predictCart(t.fallback, taskRow(data, i));
  switch (agg) {
    case 'weighted':
      return sigmoid(weightedScore(t, data, i));
    case 'topk3':
    case 'topk5': {
      const k = agg === 'topk3' ? 3 : 5;
      const ranked = vs
        .map((v, j) => ({ v, r: v === 'invalid' ? -1 : reliabilityOf(t, data, i, j), j }))
        .filter((a) => a.v !== 'invalid')
        .sort((a, b) => b.r - a.r || a.j - b.j)
        .slice(0, k);
      return ranked.filter((a) => a.v === 'disagree').length / ranked.length;
    }
    case 'fusion':
      return predictLogistic(t.fusion!, fusionInputs(t, data, i));
  }
}

/** Fits the chosen configuration on the whole high-confidence set and predicts every task. */
export function runDecisionPlane(data: PlaneData, hcIndex: readonly number[], hcY: readonly number[], config: PlaneConfig): PlaneOutput {
  const t = train(data, hcIndex, hcY, config.depth, config.aggregation === 'fusion');
  const probability = data.features.map((_, i) => predict(t, data, i, config.aggregation));
  const reliability = data.verdicts.map((vs, i) => vs.map((_, j) => reliabilityOf(t, data, i, j)));
  return { config, probability, reliability };
}

/**
 * Every candidate's probability for every task, cross-fitted: the tasks are dealt into `folds`
 * folds (seeded, stratified by pseudo-label), and a task's probability comes from models trained on the high-confidence
 * tasks of the other folds only.
 */
export function crossFittedPlane(data: PlaneData, hcIndex: readonly number[], hcY: readonly number[], seed: number, folds = 5): number[][] {
  const n = data.features.length;
  // Stratified by the pseudo-label, so every fold's training set keeps both classes.
  const isError = new Array<number>(n).fill(0);
  hcIndex.forEach((i, r) => (isError[i] = hcY[r]!));
  const fold = stratifiedFolds(isError, folds, seed);
  const out = CANDIDATES.map(() => new Array<number>(n).fill(0.5));
  for (const depth of [2, 4] as const) {
    for (let f = 0; f < folds; f++) {
      const rows: number[] = [];
      const y: number[] = [];
      hcIndex.forEach((i, r) => {
        if (fold[i] === f) return;
        rows.push(i);
        y.push(hcY[r]!);
      });
      if (!y.includes(0) || !y.includes(1)) continue;
      const t = train(data, rows, y, depth, true);
      for (let i = 0; i < n; i++) {
        if (fold[i] !== f) continue;
        CANDIDATES.forEach((c, ci) => {
          if (c.depth === depth) out[ci]![i] = predict(t, data, i, c.aggregation);
        });
      }
    }
  }
  return out;
}

/**
 * The plane learns on a class-balanced set (k per class), so its raw probabilities overstate
 * the error rate. Flag the tasks it ranks highest, as many as the label model's estimated
 * prevalence implies (ties broken by the label-model posterior, then task order), and
 * re-centre the probabilities so that the cut sits at 0.5.
 */
export function cutAtPrevalence(p: readonly number[], posterior: Float64Array, prior: number): { flagged: boolean[]; probability: number[] } {
  const n = p.length;
  const quota = Math.min(n, Math.max(0, Math.round(prior * n)));
  const rank = p.map((_, i) => i).sort((a, b) => p[b]! - p[a]! || posterior[b]! - posterior[a]! || a - b);
  const flagged = new Array<boolean>(n).fill(false);
  rank.slice(0, quota).forEach((i) => (flagged[i] = true));
  const logit = (x: number): number => {
    const q = Math.min(1 - 1e-9, Math.max(1e-9, x));
    return Math.log(q / (1 - q));
  };
  const above = quota > 0 ? p[rank[quota - 1]!]! : 1;
  const below = quota < n ? p[rank[quota]!]! : 0;
  const cut = (logit(above) + logit(below)) / 2;
  return { flagged, probability: p.map((x) => 1 / (1 + Math.exp(-(logit(x) - cut)))) };
}
