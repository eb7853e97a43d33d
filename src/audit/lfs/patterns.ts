import { hasRepeats } from '../normalize.js';
import type { LabelingFunction } from './types.js';
import { errorIf } from './types.js';

/**
 * Known error patterns in gold SQL. SQLite accepts all of them silently, so each votes
 * "error" only when the agents' rival result also out-votes the gold — except a JOIN without
 * any condition, a fact about the gold (decisive).
 */
export const patternLfs: LabelingFunction[] = [
  {
    name: 'pat_cross_join',
    family: 'pattern',
    doc: 'Gold JOINs a table with no ON/USING and no column = column test: a cartesian product → error (decisive).',
    decisive: true,
    vote: (c) => (c.goldShape.crossJoin ? -1 : 0),
  },
  {
    name: 'pat_agg_without_group',
    family: 'pattern',
    doc: 'Gold mixes an aggregate with a bare column and no GROUP BY (SQLite picks an arbitrary row), out-voted → error.',
    vote: (c) => errorIf(c.goldShape.aggWithoutGroup, c),
  },
  {
    name: 'pat_integer_division',
    family: 'pattern',
    doc: 'Gold divides without CAST or a real operand (integer division truncates), out-voted → error.',
    vote: (c) => errorIf(c.goldShape.integerDivision, c),
  },
  {
    name: 'pat_limit_without_order',
    family: 'pattern',
    doc: 'Gold uses LIMIT without ORDER BY (an arbitrary row), out-voted → error.',
    vote: (c) => errorIf(c.goldShape.limit !== null && !c.goldShape.orderBy, c),
  },
  {
    name: 'pat_superlative_ties',
    family: 'pattern',
    doc: 'Gold answers a superlative with ORDER BY … LIMIT 1 while the rival returns more rows (ties dropped), out-voted → error.',
    vote: (c) => errorIf(c.goldShape.orderBy && c.goldShape.limit === 1 && (c.rival?.result.nRows ?? 0) > 1, c),
  },
  {
    name: 'pat_setop_on_names',
    family: 'pattern',
    doc: 'Gold uses INTERSECT/EXCEPT (set semantics merge equal names of different entities), out-voted → error.',
    vote: (c) => errorIf(c.goldShape.setOp === 'intersect' || c.goldShape.setOp === 'except', c),
  },
  {
    name: 'pat_not_in_subquery',
    family: 'pattern',
    doc: 'Gold uses NOT IN over a subquery (NULLs make it return nothing), out-voted → error.',
    vote: (c) => errorIf(c.goldShape.notIn && c.goldShape.nested > 0, c),
  },
  {
    name: 'pat_duplicate_rows',
    family: 'pattern',
    doc: 'Gold result repeats rows without DISTINCT while the rival has none repeated, out-voted → error.',
    vote: (c) => {
      const dup = hasRepeats(c.gold) && !c.goldShape.distinct;
      const rivalDup = c.rival ? hasRepeats(c.rival.result) : true;
      return errorIf(dup && !rivalDup, c);
    },
  },
];
