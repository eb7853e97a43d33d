/**
 * Spider's exact set match (EM) and its component ("partial") scores, as `evaluation.py` of
 * taoyds/test-suite-sql-eval computes them in its `match` mode, reimplemented from its behaviour:
 *  - both structures are rebuilt first: condition values dropped (a subquery value is kept,
 *    itself rebuilt), DISTINCT dropped, and each column of a table in FROM mapped to the first
 *    column of its foreign-key group (from tables.json); FROM subqueries and subqueries used as
 *    values are left as they are;
 *  - ten components compare the rebuilt parts as multisets or sets; a component scores 1 only
 *    when both sides have the same count and all match (both empty also scores 1);
 *  - and/or compares the sets of connectives in WHERE and reports the two counts swapped
 *    (prediction's in `labelTotal`), both 1 whenever the sets are equal;
 *  - EM is 1 when every component scores 1 and the sorted FROM table units are equal.
 */
import { comparePythonStrings } from '../values/python-value.js';
import { WHERE_OPS, type ColUnit, type CondUnit, type CondValue, type Condition, type SpiderSchema, type SpiderSql, type TableUnit, type ValUnit } from './spider-parse.js';

export const PARTIAL_TYPES = [
  'select',
  'select(no AGG)',
  'where',
  'where(no OP)',
  'group(no Having)',
  'group',
  'order',
  'and/or',
  'IUEN',
  'keywords',
] as const;
export type PartialType = (typeof PARTIAL_TYPES)[number];

export interface PartialScore {
  acc: number;
  rec: number;
  f1: number;
  label_total: number;
  pred_total: number;
}

export type PartialScores = Record<PartialType, PartialScore>;

/** Column id (`__table.column__`) → the id its foreign-key group maps to. */
export type ForeignKeyMap = Map<string, string>;

const isSql = (v: unknown): v is SpiderSql => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Python's `==` on the structures (ints, floats and bools compare by value; dicts by keys). */
export function pyEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'boolean' || typeof b === 'boolean') return Number(a) === Number(b) && typeof a !== 'string' && typeof b !== 'string' && a !== null && b !== null;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => pyEqual(x, b[i]));
  }
  if (isSql(a) && isSql(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => k in b && pyEqual((a as unknown as Record<string, unknown>)[k], (b as unknown as Record<string, unknown>)[k]));
  }
  return false;
}

const indexOfEqual = (list: readonly unknown[], x: unknown): number => list.findIndex((y) => pyEqual(x, y));

// ---------------------------------------------------------------- rebuilding (values, FK map)

/** Columns of the tables in FROM (table units only), as the official `build_valid_col_units`. */
export function validColUnits(tableUnits: readonly TableUnit[], schema: SpiderSchema): Set<string> {
  const prefixes = tableUnits.filter((t) => t[0] === 'table_unit').map((t) => (t[1] as string).slice(0, -2));
  const out = new Set<string>();
  for (const v of schema.idMap.values()) if (v.includes('.') && prefixes.includes(v.slice(0, v.indexOf('.')))) out.add(v);
  return out;
}

function dropValues(sql: SpiderSql | null): SpiderSql | null {
  if (!sql) return sql;
  const cond = (c: Condition): Condition =>
    c.map((u, i) => (i % 2 === 0 ? dropCondValues(u as CondUnit) : u));
  sql.from.conds = cond(sql.from.conds);
  sql.having = cond(sql.having);
  sql.where = cond(sql.where);
  sql.intersect = dropValues(sql.intersect);
  sql.except = dropValues(sql.except);
  sql.union = dropValues(sql.union);
  return sql;
}

function dropCondValues(u: CondUnit): CondUnit {
  const keep = (v: CondValue): CondValue => (isSql(v) ? dropValues(v) : null);
  return [u[0], u[1], u[2], keep(u[3]), keep(u[4])];
}

function mapColUnit(valid: Set<string>, cu: ColUnit | null, kmap: ForeignKeyMap): ColUnit | null {
  if (!cu) return cu;
  const [agg, col] = cu;
  const mapped = kmap.has(col) && valid.has(col) ? kmap.get(col)! : col;
  return [agg, mapped, null];
}

function mapValUnit(valid: Set<string>, vu: ValUnit, kmap: ForeignKeyMap): ValUnit {
  return [vu[0], mapColUnit(valid, vu[1], kmap)!, mapColUnit(valid, vu[2], kmap)];
}

function mapCondition(valid: Set<string>, c: Condition, kmap: ForeignKeyMap): Condition {
  return c.map((u, i) => {
    if (i % 2 !== 0) return u;
    const cu = u as CondUnit;
    return [cu[0], cu[1], mapValUnit(valid, cu[2], kmap), cu[3], cu[4]];
  });
}

function mapColumns(valid: Set<string>, sql: SpiderSql | null, kmap: ForeignKeyMap): SpiderSql | null {
  if (!sql) return sql;
  sql.select = [null, sql.select[1].map(([agg, vu]) => [agg, mapValUnit(valid, vu, kmap)] as [number, ValUnit])];
  // Table units are (type, id string) or (type, dict): neither is a tuple, so none is rebuilt.
  sql.from.conds = mapCondition(valid, sql.from.conds, kmap);
  sql.where = mapCondition(valid, sql.where, kmap);
  sql.groupBy = sql.groupBy.map((cu) => mapColUnit(valid, cu, kmap)!);
  if (sql.orderBy.length > 0) sql.orderBy = [sql.orderBy[0]!, sql.orderBy[1]!.map((vu) => mapValUnit(valid, vu, kmap))];
  sql.having = mapCondition(valid, sql.having, kmap);
  sql.intersect = mapColumns(valid, sql.intersect, kmap);
  sql.except = mapColumns(valid, sql.except, kmap);
  sql.union = mapColumns(valid, sql.union, kmap);
  return sql;
}

/** The official value-free, foreign-key-mapped rebuild (mutates and returns `sql`). */
export function rebuildSpiderSql(sql: SpiderSql, schema: SpiderSchema, kmap: ForeignKeyMap): SpiderSql {
  const valid = validColUnits(sql.from.table_units, schema);
  return mapColumns(valid, dropValues(sql), kmap)!;
}

// ---------------------------------------------------------------- components

type Counts = [label: number, pred: number, cnt: number];

function evalSelect(pred: SpiderSql, label: SpiderSql): [number, number, number, number] {
  const predSel = pred.select[1];
  // The official code removes matched units from the label's own list; nothing reads that list
  // again within one item, so a copy gives the same scores and leaves the gold reusable.
  const labelSel = [...label.select[1]];
  const labelNoAgg = labelSel.map((u) => u[1]);
  const predTotal = predSel.length;
  const labelTotal = labelSel.length;
  let cnt = 0;
  let cntNoAgg = 0;
  for (const unit of predSel) {
    const i = indexOfEqual(labelSel, unit);
    if (i >= 0) {
      cnt++;
      labelSel.splice(i, 1);
    }
    const j = indexOfEqual(labelNoAgg, unit[1]);
    if (j >= 0) {
      cntNoAgg++;
      labelNoAgg.splice(j, 1);
    }
  }
  return [labelTotal, predTotal, cnt, cntNoAgg];
}

const units = (c: Condition): CondUnit[] => c.filter((_, i) => i % 2 === 0) as CondUnit[];
const connectives = (c: Condition): string[] => c.filter((_, i) => i % 2 === 1) as string[];

function evalWhere(pred: SpiderSql, label: SpiderSql): [number, number, number, number] {
  const predConds = units(pred.where);
  const labelConds = units(label.where);
  const labelNoOp = labelConds.map((u) => u[2]);
  let cnt = 0;
  let cntNoOp = 0;
  for (const unit of predConds) {
    const i = indexOfEqual(labelConds, unit);
    if (i >= 0) {
      cnt++;
      labelConds.splice(i, 1);
    }
    const j = indexOfEqual(labelNoOp, unit[2]);
    if (j >= 0) {
      cntNoOp++;
      labelNoOp.splice(j, 1);
    }
  }
  return [units(label.where).length, predConds.length, cnt, cntNoOp];
}

function evalGroup(pred: SpiderSql, label: SpiderSql): Counts {
  // Columns compared without their table: the text after the first '.' of the id.
  const bare = (id: string): string => (id.includes('.') ? id.split('.')[1]! : id);
  const predCols = pred.groupBy.map((u) => bare(u[1]));
  const labelCols = label.groupBy.map((u) => bare(u[1]));
  const labelTotal = labelCols.length;
  let cnt = 0;
  for (const c of predCols) {
    const i = labelCols.indexOf(c);
    if (i >= 0) {
      cnt++;
      labelCols.splice(i, 1);
    }
  }
  return [labelTotal, predCols.length, cnt];
}

function evalHaving(pred: SpiderSql, label: SpiderSql): Counts {
  const predTotal = pred.groupBy.length > 0 ? 1 : 0;
  const labelTotal = label.groupBy.length > 0 ? 1 : 0;
  const same =
    predTotal === 1 &&
    labelTotal === 1 &&
    pyEqual(
      pred.groupBy.map((u) => u[1]),
      label.groupBy.map((u) => u[1]),
    ) &&
    pyEqual(pred.having, label.having);
  return [labelTotal, predTotal, same ? 1 : 0];
}

function evalOrder(pred: SpiderSql, label: SpiderSql): Counts {
  const predTotal = pred.orderBy.length > 0 ? 1 : 0;
  const labelTotal = label.orderBy.length > 0 ? 1 : 0;
  const limitsAgree = (pred.limit === null) === (label.limit === null);
  const cnt = label.orderBy.length > 0 && pyEqual(pred.orderBy, label.orderBy) && limitsAgree ? 1 : 0;
  return [labelTotal, predTotal, cnt];
}

function evalAndOr(pred: SpiderSql, label: SpiderSql): Counts {
  const p = new Set(connectives(pred.where));
  const l = new Set(connectives(label.where));
  if (p.size === l.size && [...p].every((x) => l.has(x))) return [1, 1, 1];
  // Returned as (pred, label, 0) into (label_total, pred_total, cnt): the swap is official.
  return [p.size, l.size, 0];
}

function evalNested(pred: SpiderSql | null, label: SpiderSql | null): Counts {
  const cnt = pred && label ? Number(exactMatch(pred, label).exact) : 0;
  return [label ? 1 : 0, pred ? 1 : 0, cnt];
}

function evalIUEN(pred: SpiderSql, label: SpiderSql): Counts {
  const out: Counts = [0, 0, 0];
  for (const op of ['intersect', 'except', 'union'] as const) {
    const c = evalNested(pred[op], label[op]);
    for (let i = 0; i < 3; i++) out[i]! += c[i]!;
  }
  return out;
}

function keywords(sql: SpiderSql): Set<string> {
  const res = new Set<string>();
  if (sql.where.length > 0) res.add('where');
  if (sql.groupBy.length > 0) res.add('group');
  if (sql.having.length > 0) res.add('having');
  if (sql.orderBy.length > 0) {
    res.add(sql.orderBy[0]!);
    res.add('order');
  }
  if (sql.limit !== null) res.add('limit');
  if (sql.except) res.add('except');
  if (sql.union) res.add('union');
  if (sql.intersect) res.add('intersect');
  const lists = [sql.from.conds, sql.where, sql.having];
  if (lists.some((c) => connectives(c).includes('or'))) res.add('or');
  const conds = lists.flatMap(units);
  if (conds.some((u) => u[0])) res.add('not');
  if (conds.some((u) => u[1] === WHERE_OPS.indexOf('in'))) res.add('in');
  if (conds.some((u) => u[1] === WHERE_OPS.indexOf('like'))) res.add('like');
  return res;
}

function evalKeywords(pred: SpiderSql, label: SpiderSql): Counts {
  const p = keywords(pred);
  const l = keywords(label);
  let cnt = 0;
  for (const k of p) if (l.has(k)) cnt++;
  return [l.size, p.size, cnt];
}

function score(cnt: number, predTotal: number, labelTotal: number): PartialScore {
  const v = predTotal !== labelTotal ? 0 : cnt === predTotal ? 1 : 0;
  return { acc: v, rec: v, f1: v, label_total: labelTotal, pred_total: predTotal };
}

export function partialMatch(pred: SpiderSql, label: SpiderSql): PartialScores {
  const [sl, sp, sc, scNoAgg] = evalSelect(pred, label);
  const [wl, wp, wc, wcNoOp] = evalWhere(pred, label);
  const from = (c: Counts): PartialScore => score(c[2], c[1], c[0]);
  return {
    select: score(sc, sp, sl),
    'select(no AGG)': score(scNoAgg, sp, sl),
    where: score(wc, wp, wl),
    'where(no OP)': score(wcNoOp, wp, wl),
    'group(no Having)': from(evalGroup(pred, label)),
    group: from(evalHaving(pred, label)),
    order: from(evalOrder(pred, label)),
    'and/or': from(evalAndOr(pred, label)),
    IUEN: from(evalIUEN(pred, label)),
    keywords: from(evalKeywords(pred, label)),
  };
}

/** Python's `sorted` of table units: (type, id) tuples; two subqueries cannot be ordered (TypeError). */
function sortedTableUnits(tus: readonly TableUnit[]): TableUnit[] {
  return [...tus].sort((a, b) => {
    const c = comparePythonStrings(a[0], b[0]);
    if (c !== 0) return c;
    if (pyEqual(a[1], b[1])) return 0;
    if (a[0] === 'sql') throw new TypeError("'<' not supported between instances of 'dict' and 'dict'");
    return comparePythonStrings(a[1] as string, b[1] as string);
  });
}

/** Exact set match of two rebuilt structures, with the component scores it was decided on. */
export function exactMatch(pred: SpiderSql, label: SpiderSql): { exact: boolean; partial: PartialScores } {
  const partial = partialMatch(pred, label);
  if (PARTIAL_TYPES.some((k) => partial[k].f1 !== 1)) return { exact: false, partial };
  if (label.from.table_units.length > 0) {
    return { exact: pyEqual(sortedTableUnits(label.from.table_units), sortedTableUnits(pred.from.table_units)), partial };
  }
  return { exact: true, partial };
}
