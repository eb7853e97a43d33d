import type { TaskContext } from './context.js';
import { columnsContained, strictSubset } from './normalize.js';

/**
 * How one agent's result relates to the gold's, as features for its reliability model.
 * The kind of disagreement says much about who is wrong: an agent that returns nothing
 * usually mistyped a value; one whose different answer many agents share is more credible.
 */
const AGENT_FEATURE_NAMES = [
  'disagrees',
  'agentEmpty',
  'agentSubsetOfGold',
  'goldSubsetOfAgent',
  'agentExtraColumns',
  'agentFewerColumns',
  'sameRowsDifferentMultiplicity',
  'sameRowCount',
  'shareInAgentCluster',
] as const;

export function agentFeatures(c: TaskContext, j: number): number[] {
  const r = c.agentResults[j]!;
  const g = c.gold;
  if (!r.ok) return AGENT_FEATURE_NAMES.map(() => 0);
  const dis = c.verdicts[j] === 'disagree';
  const cluster = c.clusters.find((k) => k.members.includes(j));
  return [
    +dis,
    +(dis && (r.nRows === 0 || r.allNull || r.scalar === 0) && g.nRows > 0),
    +(dis && strictSubset(r, g)),
    +(dis && strictSubset(g, r)),
    +(dis && columnsContained(g, r)),
    +(dis && columnsContained(r, g)),
    +(dis && r.setSig === g.setSig),
    +(r.nRows === g.nRows),
    c.nValid > 0 ? (cluster?.members.length ?? 1) / c.nValid : 0,
  ];
}
