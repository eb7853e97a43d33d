import { tablesFromTokens } from '../sql/parse.js';
import { significantTokens, unquote, type Token } from '../sql/tokenize.js';
import { statementText } from './sql-text.js';

/**
 * The structural facts about one query that the labeling functions and the decision
 * plane use, from the lossless token stream: it never fails and costs microseconds,
 * where node-sql-parser costs about a millisecond a query (too slow for every agent's
 * SQL in the CPU budget). The structural LFs ask the AST (src/sql/parse.ts) only for the
 * few tasks where the gold is out-voted.
 */
export interface SqlShape {
  distinct: boolean;
  countDistinct: boolean;
  groupBy: boolean;
  having: boolean;
  orderBy: boolean;
  orderDesc: boolean;
  /** LIMIT value when a literal, -1 when LIMIT takes an expression, null when absent. */
  limit: number | null;
  /** Nested SELECTs (subqueries and set-operation arms beyond the first). */
  nested: number;
  setOp: 'union' | 'intersect' | 'except' | null;
  joins: number;
  outerJoin: boolean;
  tables: string[];
  /** Aggregate functions used, sorted and de-duplicated. */
  aggregates: string[];
  whereConds: number;
  /** Normalized literals (strings case-folded and trimmed, numbers canonical). */
  literals: string[];
  division: boolean;
  /** A division whose operands are not made real by CAST, `* 1.0` or a float literal. */
  integerDivision: boolean;
  notIn: boolean;
  like: boolean;
  /** Top-level SELECT list items. */
  selectItems: number;
  /** Top-level SELECT mixes an aggregate and a bare column without GROUP BY. */
  aggWithoutGroup: boolean;
  /** A JOIN without ON/USING and no column = column test anywhere: a cartesian product. */
  crossJoin: boolean;
}

const AGGS = new Set(['count', 'sum', 'avg', 'min', 'max']);
const CLAUSE_END = new Set(['from', 'where', 'group', 'order', 'limit', 'having', 'union', 'intersect', 'except']);

const cache = new Map<string, SqlShape>();

export function sqlShape(sql: string): SqlShape {
  const hit = cache.get(sql);
  if (hit) return hit;
  const s = computeShape(sql);
  if (cache.size > 50_000) cache.clear();
  cache.set(sql, s);
  return s;
}

function computeShape(sql: string): SqlShape {
  const toks = significantTokens(statementText(sql));
  const low = toks.map((t) => (t.kind === 'word' ? t.text.toLowerCase() : t.text));
  let depth = 0;
  let selects = 0;
  let distinct = false;
  let countDistinct = false;
  let groupBy = false;
  let having = false;
  let orderBy = false;
  let orderDesc = false;
  let limit: number | null = null;
  let setOp: SqlShape['setOp'] = null;
  let joins = 0;
  let outerJoin = false;
  let whereConds = 0;
  let inWhere = false;
  let division = false;
  let integerDivision = false;
  let notIn = false;
  let like = false;
  const aggregates = new Set<string>();
  const literals: string[] = [];
  const hasReal = /\bcast\b|\breal\b|\bfloat\b|\d\.\d*|\*\s*1\.0/i.test(sql);
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!;
    const w = low[i]!;
    if (w === '(') depth++;
    else if (w === ')') depth--;
    if (t.kind === 'string' || t.kind === 'dquoted') literals.push(unquote(t).trim().toLowerCase());
    else if (t.kind === 'number' && low[i - 1] !== 'limit') literals.push(String(Number(t.text)));
    if (t.kind !== 'word' && w !== '/') continue;
    if (w === 'select') {
      selects++;
      if (low[i + 1] === 'distinct' && depth === 0) distinct = true;
    } else if (AGGS.has(w) && low[i + 1] === '(') {
      aggregates.add(w);
      if (w === 'count' && low[i + 2] === 'distinct') countDistinct = true;
    } else if (w === 'group' && low[i + 1] === 'by' && depth === 0) groupBy = true;
    else if (w === 'having' && depth === 0) having = true;
    else if (w === 'order' && low[i + 1] === 'by' && depth === 0) orderBy = true;
    else if (w === 'desc' && depth === 0) orderDesc = true;
    else if (w === 'limit' && depth === 0) {
      const n = toks[i + 1];
      limit = n?.kind === 'number' ? Number(n.text) : -1;
    } else if ((w === 'union' || w === 'intersect' || w === 'except') && depth === 0) setOp = setOp ?? w;
    else if (w === 'join') joins++;
    else if (w === 'left' || w === 'right' || w === 'outer' || w === 'full') outerJoin = outerJoin || low.slice(i, i + 3).includes('join');
    else if (w === 'where') {
      inWhere = true;
      whereConds++;
    } else if (inWhere && (w === 'and' || w === 'or')) {
      // `BETWEEN x AND y` is one condition.
      if (!(w === 'and' && low.slice(Math.max(0, i - 3), i).includes('between'))) whereConds++;
    } else if (inWhere && CLAUSE_END.has(w) && w !== 'from') inWhere = false;
    else if (w === 'not' && low[i + 1] === 'in') notIn = true;
    else if (w === 'like') like = true;
    else if (w === '/') {
      division = true;
      if (!hasReal) integerDivision = true;
    }
  }
  // Comma joins (FROM a, b) count as joins too.
  const tables = unique(tablesFromTokens(sql).map((x) => x.toLowerCase()));
  joins = Math.max(joins, tables.length - 1 - Math.max(0, selects - 1));
  const { items, bare } = topSelectList(toks, low);
  const crossJoin = joinWithoutCondition(toks, low) && !columnEquality(toks, low);
  return {
    distinct,
    countDistinct,
    groupBy,
    having,
    orderBy,
    orderDesc,
    limit,
    nested: Math.max(0, selects - 1),
    setOp,
    joins: Math.max(0, joins),
    outerJoin,
    tables,
    aggregates: [...aggregates].sort(),
    whereConds,
    literals: unique(literals).sort(),
    division,
    integerDivision,
    notIn,
    like,
    selectItems: items,
    aggWithoutGroup: !groupBy && aggregates.size > 0 && bare > 0 && items > 1,
    crossJoin,
  };
}

/** Counts the top-level SELECT items and how many of them are bare columns (no aggregate). */
function topSelectList(toks: Token[], low: string[]): { items: number; bare: number } {
  const start = low.indexOf('select');
  if (start < 0) return { items: 0, bare: 0 };
  let depth = 0;
  let items = 0;
  let bare = 0;
  let hasAgg = false;
  let hasCol = false;
  const close = (): void => {
    items++;
    if (hasCol && !hasAgg) bare++;
    hasAgg = false;
    hasCol = false;
  };
  let i = start + 1;
  for (; i < toks.length; i++) {
    const w = low[i]!;
    if (w === '(') depth++;
    else if (w === ')') depth--;
    if (depth === 0 && CLAUSE_END.has(w)) break;
    if (depth === 0 && w === ',') {
      close();
      continue;
    }
    if (AGGS.has(w) && low[i + 1] === '(') hasAgg = true;
    else if ((toks[i]!.kind === 'word' || toks[i]!.kind === 'quotedIdent') && w !== 'distinct' && w !== 'as' && low[i - 1] !== 'as') hasCol = true;
  }
  close();
  return { items, bare };
}

/** Some `JOIN t [AS x]` is not followed by ON or USING. */
function joinWithoutCondition(toks: Token[], low: string[]): boolean {
  for (let i = 0; i < toks.length; i++) {
    if (low[i] !== 'join') continue;
    let k = i + 2;
    if (low[k] === 'as') k += 2;
    else if (toks[k]?.kind === 'word' && !CLAUSE_END.has(low[k]!) && low[k] !== 'on' && low[k] !== 'using' && low[k] !== 'join' && !JOIN_WORDS.has(low[k]!)) k += 1;
    if (low[k] !== 'on' && low[k] !== 'using') return true;
  }
  return false;
}

const JOIN_WORDS = new Set(['inner', 'left', 'right', 'cross', 'natural', 'outer', 'full']);

/** Some `a.b = c.d` compares two qualified columns (a join condition written in WHERE). */
function columnEquality(toks: Token[], low: string[]): boolean {
  for (let i = 3; i + 3 < toks.length; i++) {
    if (low[i] !== '=') continue;
    if (low[i - 2] === '.' && low[i + 2] === '.' && toks[i - 1]!.kind !== 'string' && toks[i + 1]!.kind !== 'string') return true;
  }
  return false;
}

function unique(xs: string[]): string[] {
  return [...new Set(xs)];
}

/** The 12 gold-SQL features of the decision plane, in a fixed order. */
export function goldFeatures(shape: SqlShape, goldRows: number, goldOk: boolean): number[] {
  return [
    +shape.distinct,
    +shape.groupBy,
    +shape.having,
    +shape.orderBy,
    +(shape.limit !== null),
    +(shape.nested > 0),
    shape.joins,
    shape.tables.length,
    shape.aggregates.length,
    shape.whereConds,
    // Cardinality on a log scale: 0, 1, a few, many behave differently, 1000 vs 2000 does not.
    Math.log2(1 + goldRows),
    +!goldOk,
  ];
}
