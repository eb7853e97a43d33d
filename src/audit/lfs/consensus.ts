import type { TaskContext } from '../context.js';
import type { Vote } from '../types.js';
import type { LabelingFunction } from './types.js';

const share = (c: TaskContext): number => (c.nValid > 0 ? c.nAgree / c.nValid : NaN);

/** At least `min` valid agents, else abstain: two agents are no consensus. */
function withQuorum(min: number, f: (c: TaskContext) => Vote): (c: TaskContext) => Vote {
  return (c) => (c.nValid >= min ? f(c) : 0);
}

/** Consensus family: how the agents as a crowd side with or against the gold. */
export const consensusLfs: LabelingFunction[] = [
  {
    name: 'cons_majority_agree',
    family: 'consensus',
    doc: 'More than half of the valid agents reproduce the gold result → correct.',
    vote: withQuorum(3, (c) => (share(c) > 0.5 ? 1 : 0)),
  },
  {
    name: 'cons_majority_disagree',
    family: 'consensus',
    doc: 'More than half of the valid agents disagree with the gold result → error.',
    vote: withQuorum(3, (c) => (share(c) < 0.5 ? -1 : 0)),
  },
  {
    name: 'cons_unanimous_agree',
    family: 'consensus',
    doc: 'Every valid agent (≥ 3) reproduces the gold result → correct.',
    vote: withQuorum(3, (c) => (c.nDisagree === 0 ? 1 : 0)),
  },
  {
    name: 'cons_unanimous_disagree',
    family: 'consensus',
    doc: 'No valid agent (≥ 3) reproduces the gold result → error.',
    vote: withQuorum(3, (c) => (c.nAgree === 0 ? -1 : 0)),
  },
  {
    name: 'cons_supermajority_agree',
    family: 'consensus',
    doc: 'At least 80% of the valid agents agree with the gold → correct.',
    vote: withQuorum(3, (c) => (share(c) >= 0.8 ? 1 : 0)),
  },
  {
    name: 'cons_supermajority_disagree',
    family: 'consensus',
    doc: 'At least 80% of the valid agents disagree with the gold → error.',
    vote: withQuorum(3, (c) => (share(c) <= 0.2 ? -1 : 0)),
  },
  {
    name: 'cons_third_disagree',
    family: 'consensus',
    doc: 'At least a third of the valid agents disagree (a sizeable dissent) → error; at most a tenth → correct.',
    vote: withQuorum(3, (c) => (share(c) <= 2 / 3 ? -1 : share(c) >= 0.9 ? 1 : 0)),
  },
  {
    name: 'cons_rival_cluster',
    family: 'consensus',
    doc: "A cluster of ≥ 3 agents agreeing among themselves on another result is larger than the gold's → error.",
    vote: (c) => (c.rival && c.rival.members.length >= 3 && c.rival.members.length > c.nAgree ? -1 : 0),
  },
  {
    name: 'cons_gold_plurality',
    family: 'consensus',
    doc: "The gold's result is the most common result among the agents (ties count for the gold) and ≥ 2 agents reproduce it → correct.",
    vote: (c) => (c.clusters[0]?.agreesWithGold && c.nAgree >= 2 ? 1 : 0),
  },
  {
    name: 'cons_gold_isolated',
    family: 'consensus',
    doc: 'No agent reproduces the gold while ≥ 5 run, and at least two of them agree with each other → error.',
    vote: (c) => (c.nValid >= 5 && c.nAgree === 0 && (c.clusters[0]?.members.length ?? 0) >= 2 ? -1 : 0),
  },
  {
    name: 'cons_weighted_agree',
    family: 'consensus',
    doc: 'Agreement weighted by each agent\'s label-free skill (how often it sits in the plurality) ≥ 0.6 → correct.',
    vote: withQuorum(3, (c) => (c.weightedAgreement >= 0.6 ? 1 : 0)),
  },
  {
    name: 'cons_weighted_disagree',
    family: 'consensus',
    doc: 'Skill-weighted agreement ≤ 0.4 → error.',
    vote: withQuorum(3, (c) => (c.weightedAgreement <= 0.4 ? -1 : 0)),
  },
  {
    name: 'cons_fragmented',
    family: 'consensus',
    doc: 'The agents scatter over ≥ 3 results, none holding a majority, and the gold is not the largest → error.',
    vote: withQuorum(4, (c) => {
      const top = c.clusters[0];
      return c.clusters.length >= 3 && top && top.members.length * 2 <= c.nValid && !top.agreesWithGold ? -1 : 0;
    }),
  },
];
