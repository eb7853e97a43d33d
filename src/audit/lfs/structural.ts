import { tablesOf } from '../../sql/parse.js';
import type { TaskContext } from '../context.js';
import type { SqlShape } from '../sql-shape.js';
import type { Vote } from '../types.js';
import { errorIf, outvoted, type LabelingFunction } from './types.js';

/** Compares the gold's shape with the rival cluster's; abstains when there is no rival SQL. */
function diff(cond: (g: SqlShape, r: SqlShape) => boolean): (c: TaskContext) => Vote {
  return (c) => (c.rivalShape ? errorIf(cond(c.goldShape, c.rivalShape), c) : 0);
}

/**
 * Error when one side (`reader`) reads a table the other does not. Tables come from the AST
 * (token fallback inside parse.ts): exact, but only worth a parse when the gold is out-voted.
 */
function tableOnlyIn(reader: 'gold' | 'rival'): (c: TaskContext) => Vote {
  const tables = (sql: string): string[] => [...new Set(tablesOf(sql).map((x) => x.toLowerCase()))];
  return (c) => {
    if (!c.rivalSql || !outvoted(c)) return 0;
    const gold = tables(c.task.goldSql);
    const rival = tables(c.rivalSql);
    const [mine, other] = reader === 'gold' ? [gold, rival] : [rival, gold];
    return mine.some((x) => !other.includes(x)) ? -1 : 0;
  };
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
    vote: tableOnlyIn('rival'),
  },
  {
    name: 'struct_extra_table',
    family: 'structural',
    doc: 'Gold reads a table the rival consensus does without (a spurious join), and is out-voted → error.',
    vote: tableOnlyIn('gold'),
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
    doc: 'The rival differs from the gold only in values (same tables, aggregates, grouping, DISTINCT, set operation, WHERE count, LIMIT) and ≥ 2 agents back the gold → correct.',
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
