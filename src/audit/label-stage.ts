import { agentFeatures } from './agent-features.js';
import { buildContexts, type TaskContext } from './context.js';
import type { PlaneData } from './decision-plane.js';
import { dependentGroups, effectiveSize, residualCorrelation } from './dependency.js';
import { fitLabelModel, type LabelModelFit } from './label-model.js';
import { applyLfs, type VoteMatrix } from './lfs/index.js';
import { goldFeatures } from './sql-shape.js';
import type { AuditInputs } from './types.js';

/**
 * The audit's label-free core for one set of agents: task contexts, LF votes, the Dawid–Skene
 * label model (refitted with one column per family of dependent agents) and the decisive facts
 * that override it. The pipeline runs it on all agents; the decision plane's selection
 * (plane-selection.ts) also runs it on halves of them.
 */
export interface LabelStage {
  contexts: TaskContext[];
  votes: VoteMatrix;
  /** Tasks a decisive LF proves wrong. */
  decisive: boolean[];
  /** The refitted label model; decisive tasks' posterior raised to DECISIVE_P. */
  lm: LabelModelFit;
  /** Families of agents (indices), singletons included. */
  families: number[][];
}

export const DECISIVE_P = 0.99;

export function labelStage(inputs: AuditInputs): LabelStage {
  const contexts = buildContexts(inputs);
  const votes = applyLfs(contexts);
  // The meta LF is a function of the others; fitting on it would count their evidence twice.
  const fittedColumns = votes.lfs.map((lf, j) => (lf.family === 'meta' ? -1 : j)).filter((j) => j >= 0);
  // Decisive LFs state facts: those tasks anchor the label model's EM as known errors.
  const decisive = contexts.map((_, i) => votes.lfs.some((lf, j) => lf.decisive === true && votes.votes[i * votes.m + j]! < 0));
  // First fit: one column per agent. Its posterior shows which agents err together given the class;
  // the refit counts each such family once (one column holding the sign of its members' votes).
  const firstInput = withAgentColumns(votes, contexts, fittedColumns, inputs.agents.map((_, a) => [a]));
  const first = fitLabelModel({ ...firstInput, clampError: decisive });
  const families = dependentGroups(residualCorrelation(firstInput.votes, firstInput.m, firstInput.columns.slice(fittedColumns.length), first.posterior), effectiveSize(first.posterior));
  const lm = families.some((f) => f.length > 1) ? fitLabelModel({ ...withAgentColumns(votes, contexts, fittedColumns, families), clampError: decisive }) : first;
  decisive.forEach((d, i) => {
    if (d) lm.posterior[i] = Math.max(lm.posterior[i]!, DECISIVE_P);
  });
  return { contexts, votes, decisive, lm, families };
}

/** What the decision plane learns from: the gold's features, the verdicts, each agent's result features, family weights. */
export function planeData(stage: LabelStage, nAgents: number): PlaneData {
  const { contexts } = stage;
  return {
    features: contexts.map((c) => goldFeatures(c.goldShape, c.gold.nRows, c.gold.ok)),
    verdicts: contexts.map((c) => c.verdicts),
    agentFeatures: contexts.map((c) => c.verdicts.map((_, j) => agentFeatures(c, j))),
    agentWeights: familyWeights(stage.families, nAgents),
  };
}

/** The decision plane's weight of each agent's vote: a family of dependent agents shares one vote's weight. */
function familyWeights(families: readonly (readonly number[])[], k: number): number[] {
  const w = new Array<number>(k).fill(1);
  for (const f of families) for (const a of f) w[a] = 1 / f.length;
  return w;
}

/**
 * The label model sees the LFs plus one column per family of agents (singletons: one per
 * agent), so Dawid–Skene can learn each voter's own sensitivity and specificity. A family's
 * column holds the sign of its members' verdicts (agree +1, disagree -1, invalid 0): one
 * vote for what is, given the class, one source of evidence.
 */
function withAgentColumns(
  votes: VoteMatrix,
  contexts: readonly TaskContext[],
  lfColumns: readonly number[],
  families: readonly (readonly number[])[],
): { n: number; m: number; votes: Int8Array; columns: number[] } {
  const m = votes.m + families.length;
  const out = new Int8Array(votes.n * m);
  for (let i = 0; i < votes.n; i++) {
    out.set(votes.votes.subarray(i * votes.m, (i + 1) * votes.m), i * m);
    const vs = contexts[i]!.verdicts;
    families.forEach((f, g) => {
      let sum = 0;
      for (const a of f) sum += vs[a] === 'agree' ? 1 : vs[a] === 'disagree' ? -1 : 0;
      out[i * m + votes.m + g] = Math.sign(sum);
    });
  }
  const columns = [...lfColumns, ...families.map((_, g) => votes.m + g)];
  return { n: votes.n, m, votes: out, columns };
}
