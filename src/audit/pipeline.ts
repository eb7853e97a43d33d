import { agentFeatures } from './agent-features.js';
import { agentStatistics, type AgentStatistics } from './agent-stats.js';
import { buildContexts, type TaskContext } from './context.js';
import { CANDIDATES, runDecisionPlane, type PlaneConfig } from './decision-plane.js';
import { highConfidenceSet } from './high-confidence.js';
import { dependentGroups, effectiveSize, residualCorrelation } from './dependency.js';
import { fitLabelModel } from './label-model.js';
import { lfStatistics, type FamilyCorrelation, type LfStat } from './lf-stats.js';
import { applyLfs, type VoteMatrix } from './lfs/index.js';
import { reviewOrder } from './review-order.js';
import { goldFeatures } from './sql-shape.js';
import { birdEqual } from '../execution/compare-bird.js';
import type { AuditInputs, AuditOptions, TaskFlag, Verdict } from './types.js';

/**
 * The audit's CPU pass, after execution (SALUS-style, transductive, label-free):
 * 1. task contexts: normalized result agreement of every agent with the gold, clusters of
 *    agreeing agents, the rival cluster and its SQL, probe facts (context.ts);
 * 2. labeling functions in five families + one meta LF → the vote matrix (lfs/);
 * 3. a Dawid–Skene label model on the vote matrix plus one column per agent (label-model.ts);
 *    its posterior reveals families of dependent agents (dependency.ts), and the model is
 *    refitted with one column per family → P(gold wrong) per task and the error prevalence;
 * 4. decisive LFs (facts: the gold fails, its LIMIT cuts a tie, its set operation merges
 *    entities, its literal is mis-cased, it joins without a condition) override the models;
 * 5. flags: the label model's P(gold wrong) > 0.5 (and every decisive task); the review queue
 *    ranks all tasks (review-order.ts);
 * 6. only with `decisionPlane`: the high-confidence set (top k per class) trains the decision
 *    plane (per-agent CART reliability, a fallback task model, three aggregations, chosen by
 *    5-fold CV on the label model's pseudo-labels, decision-plane.ts), whose ranking, cut at
 *    the label model's prevalence, makes the flags instead. Off by default: the CV is circular
 *    (it scores candidates against the pseudo-labels the same votes made) and on the
 *    injected-error benchmark the plane's flags and probability are no better than the label
 *    model's (README).
 * It receives no labels (AuditInputs has no field for them); scoring against a labelled
 * sample happens afterwards in evaluate.ts, the only module that reads labels.
 */
export interface AuditReport {
  n: number;
  agents: string[];
  flags: TaskFlag[];
  flagged: number;
  /**
   * Each agent's verdict per task under the audit's comparison (normalized results; an agent's
   * forgotten DISTINCT or LIMIT-1 pick among ties is no opinion) and under plain EX (BIRD's
   * official set comparison): the majority-vote and single-agent baselines are scored on both.
   */
  verdicts: { audit: Verdict[][]; ex: Verdict[][] };
  labelModel: { errorPrior: number; iterations: number; posterior: Float64Array; logOdds: Float64Array };
  /** Agents found dependent on each other (label-free, dependency.ts), each family counted as one voter; singletons left out. */
  agentFamilies: string[][];
  highConfidence: { k: number; errors: number; correct: number };
  /** Only with `decisionPlane: true` (off by default: see AuditOptions). */
  plane: { config: PlaneConfig; cv: { config: PlaneConfig; f1: number }[] } | null;
  lfStats: LfStat[];
  familyCorrelation: FamilyCorrelation[];
  agentStats: AgentStatistics;
  /** Wall time of the CPU pass, milliseconds. */
  ms: number;
}

const DECISIVE_P = 0.99;

/**
 * The plane learns on a class-balanced set (k per class), so its raw probabilities overstate
 * the error rate. Flag the tasks it ranks highest, as many as the label model's estimated
 * prevalence implies (ties broken by the label-model posterior, then task order), and
 * re-centre the probabilities so that the cut sits at 0.5.
 */
function cutAtPrevalence(p: readonly number[], posterior: Float64Array, prior: number): { flagged: boolean[]; probability: number[] } {
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

export function runAuditPipeline(inputs: AuditInputs, opts: AuditOptions = {}): AuditReport {
  const t0 = performance.now();
  const seed = opts.seed ?? 1;
  const n = inputs.tasks.length;
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
  const agentFamilies = dependentGroups(residualCorrelation(firstInput.votes, firstInput.m, firstInput.columns.slice(fittedColumns.length), first.posterior), effectiveSize(first.posterior));
  const lm = agentFamilies.some((f) => f.length > 1) ? fitLabelModel({ ...withAgentColumns(votes, contexts, fittedColumns, agentFamilies), clampError: decisive }) : first;
  decisive.forEach((d, i) => {
    if (d) lm.posterior[i] = Math.max(lm.posterior[i]!, DECISIVE_P);
  });
  // Decisive tasks say nothing about the agents' reliability (they may all copy the gold): keep them out of training.
  const hc = highConfidenceSet(lm.posterior, opts.k, decisive);
  const verdicts = contexts.map((c) => c.verdicts);
  const features = contexts.map((c) => goldFeatures(c.goldShape, c.gold.nRows, c.gold.ok));
  const bothClasses = hc.y.includes(0) && hc.y.includes(1);
  // Without both classes in the high-confidence set there is nothing to learn reliabilities from: the label model decides.
  const plane =
    opts.decisionPlane === true && bothClasses && inputs.agents.length > 0
      ? runDecisionPlane({ features, verdicts, agentFeatures: contexts.map((c) => c.verdicts.map((_, j) => agentFeatures(c, j))), agentWeights: familyWeights(agentFamilies, inputs.agents.length) }, hc.index, hc.y, seed)
      : null;
  const { flagged, probability } = plane ? cutAtPrevalence(plane.probability, lm.posterior, lm.errorPrior) : { flagged: Array.from(lm.posterior, (p) => p > 0.5), probability: Array.from(lm.posterior) };
  decisive.forEach((d, i) => {
    if (!d) return;
    flagged[i] = true;
    probability[i] = Math.max(probability[i]!, DECISIVE_P);
  });
  const reliability = plane ? plane.reliability : verdicts.map((vs) => vs.map(() => 0.5));
  const ex = exVerdicts(inputs);
  const order = reviewOrder(contexts, ex, inputs.agents, agentFamilies, lm.posterior);
  const flags = contexts.map((c, i) => ({ ...taskFlag(c, votes, i, flagged[i]!, probability[i]!, lm.posterior[i]!, reliability[i]!, inputs), score: order.score[i]!, rank: order.rank[i]! }));
  const { lfs, families } = lfStatistics(votes, lm.accuracy);
  const agents = inputs.agents.map((a) => a.name);
  return {
    n,
    agents,
    flags,
    flagged: flags.filter((f) => f.flagged).length,
    verdicts: { audit: contexts.map((c) => c.verdicts), ex },
    labelModel: { errorPrior: lm.errorPrior, iterations: lm.iterations, posterior: lm.posterior, logOdds: lm.logOdds },
    agentFamilies: agentFamilies.filter((f) => f.length > 1).map((f) => f.map((a) => agents[a]!)),
    highConfidence: { k: hc.k, errors: hc.y.filter((y) => y === 1).length, correct: hc.y.filter((y) => y === 0).length },
    plane: plane ? { config: plane.config, cv: CANDIDATES.map((config, i) => ({ config, f1: plane.cvF1[i]! })) } : null,
    lfStats: lfs,
    familyCorrelation: families,
    agentStats: agentStatistics(agents, contexts, reliability),
    ms: performance.now() - t0,
  };
}

function taskFlag(
  c: TaskContext,
  votes: VoteMatrix,
  i: number,
  flagged: boolean,
  probability: number,
  lmPosterior: number,
  reliability: readonly number[],
  inputs: AuditInputs,
): Omit<TaskFlag, 'score' | 'rank'> {
  const fired = votes.lfs.flatMap((lf, j) => {
    const v = votes.votes[i * votes.m + j]!;
    return v === 0 ? [] : [{ lf: lf.name, vote: v as 1 | -1 }];
  });
  const flag: Omit<TaskFlag, 'score' | 'rank'> = { taskId: c.task.id, flagged, probability, labelModelProbability: lmPosterior, fired };
  // A correction needs a real consensus: ≥ 3 agents agreeing with each other against the gold.
  const cluster = flagged ? c.clusters.find((k) => !k.agreesWithGold && k.members.length >= 3) : undefined;
  if (cluster) {
    const best = cluster.members.reduce((a, b) => (reliability[b]! > reliability[a]! ? b : a));
    const sql = inputs.agents[best]!.sql[i];
    if (sql !== undefined) flag.correction = { sql, agent: inputs.agents[best]!.name, clusterSize: cluster.members.length };
  }
  return flag;
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

/** The decision plane's weight of each agent's vote: a family of dependent agents shares one vote's weight. */
function familyWeights(families: readonly (readonly number[])[], k: number): number[] {
  const w = new Array<number>(k).fill(1);
  for (const f of families) for (const a of f) w[a] = 1 / f.length;
  return w;
}


/** Plain EX agreement: BIRD's official set comparison of each agent's raw result with the gold's. */
function exVerdicts(inputs: AuditInputs): Verdict[][] {
  return inputs.tasks.map((_, i) =>
    inputs.agents.map((a) => {
      const r = a.results[i];
      if (!r || r.status !== 'ok') return 'invalid';
      return birdEqual(inputs.gold[i]!, r) ? 'agree' : 'disagree';
    }),
  );
}
