import { significantTokens } from '../sql/tokenize.js';
import type { TaskContext } from './context.js';
import type { AgentRun, Verdict } from './types.js';

/**
 * The review queue: every task ranked from most to least suspicious, so that a maintainer
 * can read wrong gold first and go as far down as time allows. The order is lexicographic on
 * evidence, most direct first:
 * 1. the share of voters disagreeing with the gold (audit comparison), a family of dependent
 *    agents (dependency.ts) being one voter with its members' majority (no valid voter: 0.5);
 * 2. the share of single agents disagreeing;
 * 3. the share of single agents disagreeing under plain EX (BIRD's set comparison), where the
 *    audit's comparison excuses an agent (a forgotten DISTINCT, a LIMIT-1 pick among ties);
 * 4. the label model's P(gold wrong) (LFs, agents, decisive facts);
 * 5. how cohesive the dissent is: the largest group of agents agreeing with each other on one
 *    other answer, as a share of the valid agents — one alternative answer (a correction) is
 *    stronger evidence than agents scattered over several;
 * 6. how few distinct SQL texts the agents agreeing with the gold wrote: many different
 *    queries reaching the gold's answer confirm it more than one query repeated;
 * 7. the gold's length in tokens: among tasks with identical evidence (mostly every agent
 *    agreeing), a longer query has more places to be wrong — a prior, not evidence.
 * Agent disagreement leads because it is what an injected error changes and what the label
 * model saturates on (P = 1 to machine precision for most disputed tasks). Tasks tie only when
 * all seven keys are equal. Chosen on the injected-error benchmark's seeds 1 and 2 (never on
 * labels): there, ordering by the label model's log-odds instead of its posterior in key 4, or
 * dropping key 5, ranks the benchmark's own wrong gold above injected errors (AUC 0.970–0.973
 * instead of 0.981–0.983).
 */
export interface ReviewOrder {
  /** Per task, in [0, 1]: the share of other tasks ranked less suspicious (ties at their mid-rank). */
  score: number[];
  /** Per task, 1 = most suspicious (ties share the best rank). */
  rank: number[];
}

function familyDisagreement(vs: readonly Verdict[], families: readonly (readonly number[])[]): number {
  let voters = 0;
  let against = 0;
  for (const f of families) {
    let s = 0;
    for (const a of f) s += vs[a] === 'agree' ? 1 : vs[a] === 'disagree' ? -1 : 0;
    if (s === 0) continue;
    voters++;
    if (s < 0) against++;
  }
  return voters > 0 ? against / voters : 0.5;
}

/** Share of a task's valid agents that disagree with the gold; `none` when no agent is valid. */
export function disagreementShare(vs: readonly Verdict[], none = 0): number {
  const valid = vs.filter((v) => v !== 'invalid').length;
  return valid > 0 ? vs.filter((v) => v === 'disagree').length / valid : none;
}

/** The largest cluster of valid agents disagreeing with the gold, per valid agent (clusters are largest first). */
function dissentCohesion(c: TaskContext): number {
  const top = c.clusters.find((k) => !k.agreesWithGold);
  return top && c.nValid > 0 ? top.members.length / c.nValid : 0;
}

/** Distinct whitespace- and case-folded SQL texts among the agents agreeing with the gold, per valid agent. */
function agreeingDiversity(c: TaskContext, agents: readonly AgentRun[]): number {
  const texts = new Set<string>();
  c.verdicts.forEach((v, j) => {
    const sql = agents[j]!.sql[c.index];
    if (v === 'agree' && sql !== undefined) texts.add(sql.replace(/\s+/g, ' ').trim().toLowerCase());
  });
  return c.nValid > 0 ? texts.size / c.nValid : 0;
}

/** `families`: every agent in exactly one group (singletons included), as dependentGroups returns them. */
export function reviewOrder(
  contexts: readonly TaskContext[],
  exVerdicts: readonly (readonly Verdict[])[],
  agents: readonly AgentRun[],
  families: readonly (readonly number[])[],
  posterior: ArrayLike<number>,
): ReviewOrder {
  const n = contexts.length;
  // Larger = more suspicious, for every key.
  const keys = contexts.map((c, i) => [familyDisagreement(c.verdicts, families), disagreementShare(c.verdicts, 0.5), disagreementShare(exVerdicts[i]!, 0.5), posterior[i]!, dissentCohesion(c), -agreeingDiversity(c, agents), significantTokens(c.task.goldSql).length]);
  const cmp = (a: number, b: number): number => {
    for (let k = 0; k < keys[a]!.length; k++) {
      const d = keys[b]![k]! - keys[a]![k]!;
      if (d !== 0) return d;
    }
    return 0;
  };
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => cmp(a, b) || a - b);
  const score = new Array<number>(n).fill(0);
  const rank = new Array<number>(n).fill(0);
  for (let s = 0; s < n; ) {
    let e = s;
    while (e + 1 < n && cmp(order[s]!, order[e + 1]!) === 0) e++;
    // Positions s..e (0 = most suspicious) tie: below them lie n − 1 − e tasks, beside them e − s.
    const sc = n > 1 ? (n - 1 - e + (e - s) / 2) / (n - 1) : 0.5;
    for (let q = s; q <= e; q++) {
      score[order[q]!] = sc;
      rank[order[q]!] = s + 1;
    }
    s = e + 1;
  }
  return { score, rank };
}
