import { columnsContained, hasRepeats, scaledBy100, strictSubset } from '../normalize.js';
import type { TaskContext } from '../context.js';
import type { LabelingFunction } from './types.js';
import { outvoted } from './types.js';

/** The gold ran and found nothing, ≥ 2 agents are valid, and more than half of them return rows (`rows`) or nothing too. */
function emptyGoldAndMost(c: TaskContext, rows: boolean): boolean {
  if (!c.gold.ok || c.gold.nRows > 0 || c.nValid < 2) return false;
  return c.agentResults.filter((r) => r.ok && (r.nRows > 0) === rows).length * 2 > c.nValid;
}

const rivalOk = (c: TaskContext): boolean => c.rival !== undefined && c.rival.members.length >= Math.max(2, c.nAgree);

/** Execution family: facts about the gold's own result and how it relates to the agents' results. */
export const executionLfs: LabelingFunction[] = [
  {
    name: 'exec_gold_error',
    family: 'execution',
    doc: 'Gold SQL fails to execute → error (decisive).',
    decisive: true,
    vote: (c) => (c.gold.ok ? 0 : -1),
  },
  {
    name: 'exec_gold_empty',
    family: 'execution',
    doc: 'Gold result is empty while most valid agents return rows → error.',
    vote: (c) => (emptyGoldAndMost(c, true) ? -1 : 0),
  },
  {
    name: 'exec_gold_all_null',
    family: 'execution',
    doc: 'Gold result has rows but every cell is NULL while the rival cluster has values → error.',
    vote: (c) => (c.gold.ok && c.gold.nRows > 0 && c.gold.allNull && c.rival && !c.rival.result.allNull ? -1 : 0),
  },
  {
    name: 'exec_gold_huge',
    family: 'execution',
    doc: 'Gold returns ≥ 10× the rows of an out-voting rival cluster (likely a missing join condition or filter) → error.',
    vote: (c) => (c.gold.ok && outvoted(c) && c.gold.nRows >= 10 * Math.max(1, c.rival!.result.nRows) ? -1 : 0),
  },
  {
    name: 'exec_cardinality_mismatch',
    family: 'execution',
    doc: 'Gold row count differs from an out-voting rival cluster of ≥ 3 agents → error.',
    vote: (c) => (c.gold.ok && outvoted(c) && c.rival!.members.length >= 3 && c.rival!.result.nRows !== c.gold.nRows ? -1 : 0),
  },
  {
    name: 'exec_column_mismatch',
    family: 'execution',
    doc: 'Gold column count differs from an out-voting rival cluster → error.',
    vote: (c) => (c.gold.ok && outvoted(c) && c.rival!.result.nCols !== c.gold.nCols ? -1 : 0),
  },
  {
    name: 'exec_missing_columns',
    family: 'execution',
    doc: "Rival cluster returns the gold's columns plus more (the question asked for more) and out-votes it → error.",
    vote: (c) => (outvoted(c) && columnsContained(c.gold, c.rival!.result) ? -1 : 0),
  },
  {
    name: 'exec_extra_columns',
    family: 'execution',
    doc: 'Gold returns the rival\'s columns plus more; projections differ only → correct (agents trimmed the answer).',
    vote: (c) => (rivalOk(c) && columnsContained(c.rival!.result, c.gold) ? 1 : 0),
  },
  {
    name: 'exec_subset',
    family: 'execution',
    doc: "Gold rows are a strict subset of an out-voting rival's (an over-restrictive filter or join) → error.",
    vote: (c) => (outvoted(c) && strictSubset(c.gold, c.rival!.result) ? -1 : 0),
  },
  {
    name: 'exec_superset',
    family: 'execution',
    doc: "Gold rows are a strict superset of an out-voting rival's (a missing filter) → error.",
    vote: (c) => (outvoted(c) && strictSubset(c.rival!.result, c.gold) ? -1 : 0),
  },
  {
    name: 'exec_scaling',
    family: 'execution',
    doc: "Gold's single number is 100× or 1/100 of a rival cluster's (percentage vs fraction) → error.",
    vote: (c) => (c.rival && scaledBy100(c.gold, c.rival.result) ? -1 : 0),
  },
  {
    name: 'exec_agents_forgot_distinct',
    family: 'execution',
    doc: 'The rival holds the gold\'s rows with repeats while the gold has none (agents forgot DISTINCT) → correct.',
    vote: (c) => {
      const r = c.rival?.result;
      return r && c.gold.ok && r.setSig === c.gold.setSig && !hasRepeats(c.gold) && hasRepeats(r) ? 1 : 0;
    },
  },
  {
    name: 'exec_tie_at_limit',
    family: 'execution',
    doc: 'Gold ORDER BY … LIMIT N cuts through rows tied on the sort key (probe query): its answer is arbitrary → error (decisive).',
    decisive: true,
    vote: (c) => (c.tieAtLimit === true ? -1 : 0),
  },
  {
    name: 'exec_setop_conflates',
    family: 'execution',
    doc: 'Gold INTERSECT/EXCEPT over names answers otherwise than the same operation over rows (probe query): entities sharing a name merge → error (decisive).',
    decisive: true,
    vote: (c) => (c.setOpConflates === true ? -1 : 0),
  },
  {
    name: 'exec_value_case',
    family: 'execution',
    doc: "Gold finds nothing, yet finds rows once its col = 'value' tests ignore case (probe query): its literal is mis-cased → error (decisive).",
    decisive: true,
    vote: (c) => (c.valueCase === true ? -1 : 0),
  },
  {
    name: 'exec_value_mismatch',
    family: 'execution',
    // Not decisive: the gold SQL may be right and the database dirty (flight_2's trailing spaces).
    doc: "Gold finds nothing, yet finds rows once its col = 'value' tests ignore case and spaces (probe query): the data spells the value otherwise → error.",
    vote: (c) => (c.valueMismatch === true && c.valueCase !== true ? -1 : 0),
  },
  {
    name: 'exec_gold_duplicates',
    family: 'execution',
    doc: 'Gold repeats rows without DISTINCT while some agent returns the same rows once each → error.',
    vote: (c) => {
      const g = c.gold;
      if (!hasRepeats(g) || c.goldShape.distinct) return 0;
      return c.agentResults.some((r) => r.ok && r.setSig === g.setSig && !hasRepeats(r)) ? -1 : 0;
    },
  },
  {
    name: 'exec_nonempty_confirmed',
    family: 'execution',
    doc: 'Gold returns non-NULL rows and at least two agents reproduce them exactly → correct.',
    vote: (c) => (c.gold.ok && c.gold.nRows > 0 && !c.gold.allNull && c.nAgree >= 2 ? 1 : 0),
  },
  {
    name: 'exec_empty_confirmed',
    family: 'execution',
    doc: 'Gold result is empty and most valid agents also return nothing → correct (the data has no match).',
    vote: (c) => (emptyGoldAndMost(c, false) ? 1 : 0),
  },
  {
    name: 'exec_agents_broken',
    family: 'execution',
    doc: 'Most agents fail to execute while the gold runs and at least one reproduces it → correct (the task is hard, not the gold wrong).',
    vote: (c) => (c.gold.ok && c.verdicts.length > 0 && c.nValid * 2 < c.verdicts.length && c.nAgree >= 1 ? 1 : 0),
  },
];
