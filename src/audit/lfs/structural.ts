import { tablesOf } from '../../sql/parse.js';
import type { TaskContext } from '../context.js';
import type { SqlShape } from '../sql-shape.js';
import type { Vote } from '../types.js';
import { errorIf, outvoted, type LabelingFunction } from './types.js';

/** Compares the gold's shape with the rival cluster's; abstains when there is no rival SQL. */
function diff(cond: (g: SqlShape, r: SqlShape) => boolean): (c: TaskContext) => Vote {
  return (c) => (c.rivalShape ? errorIf(cond(c.goldShape, c.rivalShape), c) : 0);
}

/** Tables by the AST (token fallback inside parse.ts): exact, but only worth a parse when the gold is out-voted. */
function astTables(c: TaskContext): { gold: string[]; rival: string[] } | undefined {
  if (!c.rivalSql || !outvoted(c)) return undefined;
  const norm = (xs: string[]): string[] => [...new Set(xs.map((x) => x.toLowerCase()))];
  return { gold: norm(tablesOf(c.task.goldSql)), rival: norm(tablesOf(c.rivalSql)) };
}

const sameSet = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x) => b.includes(x));

/**
 * Structural family: the gold SQL against the SQL of the agents' rival consensus.
 * Negative votes only when the rival also out-votes the gold on execution.
 */
export const structuralLfs: LabelingFunction[] = [
  {
    name: 'struct_missing_table',
    family: 'structural',
    doc: 'Rival consensus reads a table the gold does not, and out-votes it → error.',
    vote: (c) => {
      const t = astTables(c);
      return t && t.rival.some((x) => !t.gold.includes(x)) ? -1 : 0;
    },
  },
  {
    name: 'struct_extra_table',
    family: 'structural',
    doc: 'Gold reads a table the rival consensus does without (a spurious join), and is out-voted → error.',
    vote: (c) => {
      const t = astTables(c);
      return t && t.gold.some((x) => !t.rival.includes(x)) ? -1 : 0;
    },
  },
  {
    name: 'struct_join_count',
    family: 'structural',
    doc: 'Gold and rival join a different number of tables, and the gold is out-voted → error.',
    vote: diff((g, r) => g.joins !== r.joins),
  },
  {
    name: 'struct_join_type',
    family: 'structural',
    doc: 'One side uses an outer join and the other does not, and the gold is out-voted → error.',
    vote: diff((g, r) => g.outerJoin !== r.outerJoin),
  },
  {
    name: 'struct_aggregate_mismatch',
    family: 'structural',
    doc: 'Gold and rival use different aggregate functions, and the gold is out-voted → error.',
    vote: diff((g, r) => !sameSet(g.aggregates, r.aggregates)),
  },
  {
    name: 'struct_groupby_mismatch',
    family: 'structural',
    doc: 'Only one of gold and rival groups (GROUP BY), and the gold is out-voted → error.',
    vote: diff((g, r) => g.groupBy !== r.groupBy),
  },
  {
    name: 'struct_distinct_mismatch',
    family: 'structural',
    doc: 'Only one of gold and rival uses DISTINCT, and the gold is out-voted → error.',
    vote: diff((g, r) => g.distinct !== r.distinct || g.countDistinct !== r.countDistinct),
  },
  {
    name: 'struct_limit_mismatch',
    family: 'structural',
    doc: 'Gold and rival differ in LIMIT, and the gold is out-voted → error.',
    vote: diff((g, r) => g.limit !== r.limit),
  },
  {
    name: 'struct_literal_mismatch',
    family: 'structural',
    doc: 'Gold hard-codes a literal the rival does not use (a wrong value), and is out-voted → error.',
    vote: diff((g, r) => g.literals.some((l) => !r.literals.includes(l))),
  },
  {
    name: 'struct_setop_mismatch',
    family: 'structural',
    doc: 'Gold and rival differ in UNION/INTERSECT/EXCEPT, and the gold is out-voted → error.',
    vote: diff((g, r) => g.setOp !== r.setOp),
  },
  {
    name: 'struct_where_mismatch',
    family: 'structural',
    doc: 'Gold and rival have a different number of WHERE conditions, and the gold is out-voted → error.',
    vote: diff((g, r) => g.whereConds !== r.whereConds),
  },
  {
    name: 'struct_same_skeleton',
    family: 'structural',
    doc: 'The rival differs from the gold only in values, not in tables, aggregates, grouping, DISTINCT or set operations → correct (a value slip by agents).',
    vote: (c) =>
      c.rivalShape &&
      sameSet(c.goldShape.tables, c.rivalShape.tables) &&
      sameSet(c.goldShape.aggregates, c.rivalShape.aggregates) &&
      c.goldShape.groupBy === c.rivalShape.groupBy &&
      c.goldShape.distinct === c.rivalShape.distinct &&
      c.goldShape.setOp === c.rivalShape.setOp &&
      c.goldShape.whereConds === c.rivalShape.whereConds &&
      c.goldShape.limit === c.rivalShape.limit &&
      c.nAgree >= 2
        ? 1
        : 0,
  },
];
