/**
 * Spider's official difficulty levels (easy/medium/hard/extra), computed from the gold SQL
 * exactly as `eval_hardness` in taoyds/spider and taoyds/test-suite-sql-eval does.
 *
 * The official code counts over the dict that `process_sql.get_sql` builds. That parser
 * needs the schema only to map names to ids; the counts depend on structure alone, so we
 * parse just the structure (src/sql/spider-structure.ts) and then reproduce the counting,
 * including its quirks, which users rely on when they compare by-difficulty numbers:
 *  - `count_others` passes WHERE condition units to `count_agg`, which tests element 0 of
 *    each unit: that is the NOT flag, so `x NOT IN (...)` counts as an aggregate and
 *    `WHERE max(x) > 1` does not;
 *  - it passes the whole HAVING list, so each 'and'/'or' string counts as an aggregate too;
 *  - `len(where) > 1` counts the list with its conjunction strings (two conditions or more);
 *  - LIKE / NOT LIKE conditions (FROM-ON, WHERE, HAVING) add to component 1;
 *  - a subquery in FROM is a table unit (a join), not a nested query;
 *  - only the first set operation is nested; the rest of a chain belongs to that nested query.
 */
import { parseSpiderStructure, type CondList, type SpiderSelect } from './spider-structure.js';

export type SpiderHardness = 'easy' | 'medium' | 'hard' | 'extra';

export interface SpiderHardnessDetail {
  level: SpiderHardness;
  /** `count_component1`: WHERE, GROUP BY, ORDER BY, LIMIT, joins, ORs, LIKEs. */
  component1: number;
  /** `count_component2`: nested queries (condition values and the set operation). */
  component2: number;
  /** `count_others`: several aggregates, select columns, where conditions, group columns. */
  others: number;
  /** False when the SQL did not fit Spider's grammar and the counts are a best guess. */
  parsed: boolean;
}

export function spiderHardness(goldSql: string): SpiderHardness {
  return spiderHardnessDetailed(goldSql).level;
}

export function spiderHardnessDetailed(sql: string): SpiderHardnessDetail {
  const { query, parsed } = parseSpiderStructure(sql);
  const component1 = countComponent1(query);
  const component2 = countComponent2(query);
  const others = countOthers(query);
  return { level: levelOf(component1, component2, others), component1, component2, others, parsed };
}

function countComponent1(q: SpiderSelect): number {
  let count = 0;
  if (q.where.units.length > 0) count++;
  if (q.groupBy.length > 0) count++;
  if (q.orderBy.length > 0) count++;
  if (q.hasLimit) count++;
  if (q.tableUnits > 0) count += q.tableUnits - 1;
  for (const list of [q.fromConds, q.where, q.having]) {
    count += list.conjunctions.filter((c) => c === 'or').length;
    count += list.units.filter((u) => u.op === 'like').length;
  }
  return count;
}

function countComponent2(q: SpiderSelect): number {
  let count = 0;
  for (const list of [q.fromConds, q.where, q.having]) for (const u of list.units) count += u.nestedValues;
  if (q.setOp) count++;
  return count;
}

function countOthers(q: SpiderSelect): number {
  let aggs = q.select.filter((s) => s.agg).length;
  aggs += q.where.units.filter((u) => u.not).length; // the NOT-flag quirk
  aggs += q.groupBy.filter((g) => g.agg).length;
  for (const o of q.orderBy) aggs += (o.agg1 ? 1 : 0) + (o.agg2 ? 1 : 0);
  aggs += havingAggQuirk(q.having);
  let count = 0;
  if (aggs > 1) count++;
  if (q.select.length > 1) count++;
  if (listLength(q.where) > 1) count++;
  if (q.groupBy.length > 1) count++;
  return count;
}

/** `count_agg(sql['having'])`: NOT flags of the units plus every 'and'/'or' string. */
function havingAggQuirk(having: CondList): number {
  return having.units.filter((u) => u.not).length + having.conjunctions.length;
}

/** Length of the official interleaved list [unit, 'and', unit, ...]. */
function listLength(list: CondList): number {
  return list.units.length + list.conjunctions.length;
}

function levelOf(c1: number, c2: number, others: number): SpiderHardness {
  if (c1 <= 1 && others === 0 && c2 === 0) return 'easy';
  if ((others <= 2 && c1 <= 1 && c2 === 0) || (c1 <= 2 && others < 2 && c2 === 0)) return 'medium';
  if (
    (others > 2 && c1 <= 2 && c2 === 0) ||
    (c1 > 2 && c1 <= 3 && others <= 2 && c2 === 0) ||
    (c1 <= 1 && others === 0 && c2 <= 1)
  ) {
    return 'hard';
  }
  return 'extra';
}
