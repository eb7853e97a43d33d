import { detectorMetrics } from '../stats/agreement.js';
import { confusionFrom } from '../stats/confusion.js';
import { fitCart, predictCart, type CartNode } from './cart.js';
import { stratifiedFolds } from './folds.js';
import { fitLogistic, predictLogistic, sigmoid } from '../stats/logistic.js';
import type { Verdict } from './types.js';

/**
 * The decision plane: per-agent reliability models on the 12 gold-SQL features and the agent's
 * own result features (agent-features.ts), a fallback task-level model, and three ways (weighted,
 * top-k, fused) to aggregate the agents' verdicts; the combination is
 * chosen by stratified cross-validation on the high-confidence set (pseudo-labels only).
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
  /** CV F1 (error class, against pseudo-labels) per candidate, in CANDIDATES order. */
  cvF1: number[];
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

/** F1 of the error class; 0 when undefined (no errors and no flags in the fold). */
function f1(truth: readonly number[], pred: readonly boolean[]): number {
  return detectorMetrics(confusionFrom(truth.map((y) => y === 1), pred)).f1 || 0;
}

/** Chooses the configuration by 5-fold stratified CV on the high-confidence set, refits on all of it, predicts every task. */
export function runDecisionPlane(data: PlaneData, hcIndex: readonly number[], hcY: readonly number[], seed: number): PlaneOutput {
  const folds = stratifiedFolds(hcY, 5, seed);
  const cvF1 = CANDIDATES.map(() => 0);
  for (const depth of [2, 4] as const) {
    for (let f = 0; f < 5; f++) {
      const trRows: number[] = [];
      const trY: number[] = [];
      const teRows: number[] = [];
      const teY: number[] = [];
      hcIndex.forEach((i, r) => {
        if (folds[r] === f) {
          teRows.push(i);
          teY.push(hcY[r]!);
        } else {
          trRows.push(i);
          trY.push(hcY[r]!);
        }
      });
      if (teRows.length === 0 || !trY.includes(0) || !trY.includes(1)) continue;
      const t = train(data, trRows, trY, depth, true);
      CANDIDATES.forEach((c, ci) => {
        if (c.depth !== depth) return;
        const pred = teRows.map((i) => predict(t, data, i, c.aggregation) > 0.5);
        cvF1[ci]! += f1(teY, pred) / 5;
      });
    }
  }
  let best = 0;
  cvF1.forEach((v, i) => {
    if (v > cvF1[best]! + 1e-12) best = i;
  });
  const config = CANDIDATES[best]!;
  const t = train(data, hcIndex, hcY, config.depth, config.aggregation === 'fusion');
  const probability = data.features.map((_, i) => predict(t, data, i, config.aggregation));
  const reliability = data.verdicts.map((vs, i) => vs.map((_, j) => reliabilityOf(t, data, i, j)));
  return { config, cvF1, probability, reliability };
}
