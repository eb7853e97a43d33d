import { agentStatistics, type AgentStatistics } from './agent-stats.js';
import type { TaskContext } from './context.js';
import { cutAtPrevalence, runDecisionPlane, type PlaneConfig } from './decision-plane.js';
import { highConfidenceSet } from './high-confidence.js';
import { DECISIVE_P, labelStage, planeData } from './label-stage.js';
import { lfStatistics, type FamilyCorrelation, type LfStat } from './lf-stats.js';
import type { VoteMatrix } from './lfs/index.js';
import { selectPlane, type PlaneSelection } from './plane-selection.js';
import { reviewOrder } from './review-order.js';
import { birdEqual } from '../execution/compare-bird.js';
import type { AuditInputs, AuditOptions, TaskFlag, Verdict } from './types.js';

/**
 * The audit's CPU pass, after execution (SALUS-style, transductive, label-free):
 * 1–4 (label-stage.ts):
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
 * 6. only with `decisionPlane`: the label model alone and eight decision-plane candidates
 *    (per-agent CART reliability, a fallback task model, aggregations; decision-plane.ts) are
 *    scored by agreement with held-out agents (plane-selection.ts). When a plane candidate
 *    wins, it is trained on the high-confidence set (top k per class of the label model's
 *    pseudo-labels) and its ranking, cut at the label model's prevalence, makes the flags;
 *    when the label model wins, its flags stand. Off by default: on SALUS's labels and the
 *    injected-error benchmark the plane does not beat the label model (docs/commands/audit.md).
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
  /**
   * Only with `decisionPlane: true` (off by default: see AuditOptions): the configuration chosen
   * by agreement with held-out agents (plane-selection.ts), null when the label model alone won
   * (then the flags are the label model's), each candidate's score, and the two halves of agents.
   */
  plane: { config: PlaneConfig | null; selection: { candidate: string; f1: number; mcc: number }[]; halves: string[][]; lead: PlaneSelection['lead'] } | null;
  lfStats: LfStat[];
  familyCorrelation: FamilyCorrelation[];
  agentStats: AgentStatistics;
  /** Wall time of the CPU pass, milliseconds. */
  ms: number;
}

export function runAuditPipeline(inputs: AuditInputs, opts: AuditOptions = {}): AuditReport {
  const t0 = performance.now();
  const seed = opts.seed ?? 1;
  const n = inputs.tasks.length;
  const stage = labelStage(inputs);
  const { contexts, votes, decisive, lm } = stage;
  // Decisive tasks say nothing about the agents' reliability (they may all copy the gold): keep them out of training.
  const hc = highConfidenceSet(lm.posterior, opts.k, decisive);
  const verdicts = contexts.map((c) => c.verdicts);
  const bothClasses = hc.y.includes(0) && hc.y.includes(1);
  // Without both classes in the high-confidence set there is nothing to learn reliabilities from: the label model decides.
  const selection = opts.decisionPlane === true && bothClasses && inputs.agents.length > 0 ? selectPlane(inputs, stage.families, seed, opts.k) : null;
  const plane = selection?.config ? runDecisionPlane(planeData(stage, inputs.agents.length), hc.index, hc.y, selection.config) : null;
  const { flagged, probability } = plane ? cutAtPrevalence(plane.probability, lm.posterior, lm.errorPrior) : { flagged: Array.from(lm.posterior, (p) => p > 0.5), probability: Array.from(lm.posterior) };
  decisive.forEach((d, i) => {
    if (!d) return;
    flagged[i] = true;
    probability[i] = Math.max(probability[i]!, DECISIVE_P);
  });
  const reliability = plane ? plane.reliability : verdicts.map((vs) => vs.map(() => 0.5));
  const ex = exVerdicts(inputs);
  const order = reviewOrder(contexts, ex, inputs.agents, stage.families, lm.posterior);
  const flags = contexts.map((c, i) => ({ ...taskFlag(c, votes, i, flagged[i]!, probability[i]!, lm.posterior[i]!, reliability[i]!, inputs), score: order.score[i]!, rank: order.rank[i]! }));
  const { lfs, families } = lfStatistics(votes, lm.accuracy);
  const agents = inputs.agents.map((a) => a.name);
  return {
    n,
    agents,
    flags,
    flagged: flags.filter((f) => f.flagged).length,
    verdicts: { audit: verdicts, ex },
    labelModel: { errorPrior: lm.errorPrior, iterations: lm.iterations, posterior: lm.posterior, logOdds: lm.logOdds },
    agentFamilies: stage.families.filter((f) => f.length > 1).map((f) => f.map((a) => agents[a]!)),
    highConfidence: { k: hc.k, errors: hc.y.filter((y) => y === 1).length, correct: hc.y.filter((y) => y === 0).length },
    plane: selection
      ? {
          config: selection.config,
          selection: selection.scores.map(({ candidate, f1, mcc }) => ({ candidate, f1, mcc })),
          halves: selection.halves.map((h) => h.map((a) => agents[a]!)),
          lead: selection.lead,
        }
      : null,
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
