import { pythonStrip } from '../sql/python-text.js';
import { tokenize } from '../sql/tokenize.js';
import { cellKey, comparePythonStrings, joinCellKeys, pythonStrWithType, rowKey } from '../values/python-value.js';
import type { Cell, ExecResult } from './types.js';

/**
 * The exec mode of taoyds/test-suite-sql-eval, made deterministic. The original prunes column
 * permutations with 20 unseeded random rows; pruning only ever removes permutations that cannot
 * match, so checking every row gives the same verdict without the randomness.
 */

/** test-suite-sql-eval's `postprocess`: glue split comparison operators. */
export function spiderPostprocess(sql: string): string {
  return sql.split('> =').join('>=').split('< =').join('<=').split('! =').join('!=');
}

/**
 * test-suite-sql-eval's `remove_distinct`: drop every DISTINCT keyword token. It rebuilds the
 * query from `sqlparse.parse(s)[0]`, i.e. from the first statement only, so anything after the
 * first `;` is dropped too (and a prediction with two statements runs its first).
 */
export function removeDistinct(sql: string): string {
  if (!/distinct|;/i.test(sql)) return sql;
  const out: string[] = [];
  for (const t of tokenize(sql)) {
    if (t.kind === 'word' && t.text.toLowerCase() === 'distinct') continue;
    out.push(t.text);
    if (t.kind === 'op' && t.text === ';') break;
  }
  return out.join('');
}

/** test-suite-sql-eval's `replace_cur_year`: YEAR(CURDATE()) is read as 2020. */
export function replaceCurYear(sql: string): string {
  return sql.replace(/YEAR\s*\(\s*CURDATE\s*\(\s*\)\s*\)\s*/gi, '2020');
}

const executedSqlMemo = new Map<string, string | undefined>();

/**
 * The SQL the official evaluator actually executes for a gold or predicted query, as
 * evaluation.py and exec_eval.py prepare it: the line `.strip()`ped; in a prediction every
 * `value` replaced by `1` (plain, case-sensitive: `values` becomes `1s`); `> =` glued; DISTINCT
 * removed through sqlparse's first statement (unless keepDistinct); YEAR(CURDATE()) read as 2020.
 * Undefined when the evaluator scores 0 before executing: sqlparse finds no statement in an empty
 * text and `remove_distinct` raises.
 */
export function spiderExecutedSql(sql: string, keepDistinct: boolean, isPrediction: boolean): string | undefined {
  // Systems share many queries with each other and with the gold: rewrite each text once.
  const memoKey = `${keepDistinct ? 1 : 0}${isPrediction ? 1 : 0}${sql}`;
  if (executedSqlMemo.has(memoKey)) return executedSqlMemo.get(memoKey);
  const out = rewriteForExecution(sql, keepDistinct, isPrediction);
  if (executedSqlMemo.size > 100_000) executedSqlMemo.clear();
  executedSqlMemo.set(memoKey, out);
  return out;
}

function rewriteForExecution(sql: string, keepDistinct: boolean, isPrediction: boolean): string | undefined {
  const stripped = pythonStrip(sql);
  const post = spiderPostprocess(isPrediction ? stripped.split('value').join('1') : stripped);
  if (keepDistinct) return replaceCurYear(post);
  if (post === '') return undefined;
  return replaceCurYear(removeDistinct(post));
}

/** Row order matters iff the (processed) gold contains `order by`, as the original tests it. */
export function spiderOrderMatters(goldSql: string, keepDistinct: boolean): boolean {
  const post = spiderPostprocess(goldSql);
  return (keepDistinct ? post : removeDistinct(post)).toLowerCase().includes('order by');
}

/** `unorder_row`: the row's cells sorted by Python's `str(x) + str(type(x))`. */
function unorderRow(row: readonly Cell[], firstCell: number, reals: Set<number> | undefined): string {
  const keyed = row.map((v, c) => ({ v, sortKey: pythonStrWithType(v, reals?.has(firstCell + c) ?? false) }));
  keyed.sort((a, b) => comparePythonStrings(a.sortKey, b.sortKey));
  return rowKey(keyed.map((k) => k.v));
}

/** What the comparison needs of one result, computed once per result object, each part on demand. */
interface Prepared {
  rowKeys: string[];
  rowBag?: Map<string, number>;
  cellKeys?: string[][];
  /** The set of rows with their cells sorted as `unorder_row` sorts them (quick_rej). */
  unorderedSet?: Set<string>;
}

const prepared = new WeakMap<ExecResult, Prepared>();

function prepare(r: ExecResult): Prepared {
  let p = prepared.get(r);
  if (!p) {
    p = { rowKeys: r.rows.map(rowKey) };
    prepared.set(r, p);
  }
  return p;
}

function rowBagOf(p: Prepared): Map<string, number> {
  return (p.rowBag ??= bag(p.rowKeys));
}

function cellKeysOf(r: ExecResult, p: Prepared): string[][] {
  return (p.cellKeys ??= r.rows.map((row) => row.map(cellKey)));
}

function unorderedSetOf(r: ExecResult, p: Prepared): Set<string> {
  if (!p.unorderedSet) {
    const reals = r.integralReals ? new Set(r.integralReals) : undefined;
    p.unorderedSet = new Set(r.rows.map((row, i) => unorderRow(row, i * row.length, reals)));
  }
  return p.unorderedSet;
}

/** `result_eq(gold, pred, order_matters)`; an error or timeout on either side is a mismatch. */
export function spiderEqual(gold: ExecResult, pred: ExecResult, orderMatters: boolean): boolean {
  if (gold.status !== 'ok' || pred.status !== 'ok') return false;
  const r1 = gold.rows;
  const r2 = pred.rows;
  if (r1.length === 0 && r2.length === 0) return true;
  if (r1.length !== r2.length) return false;
  const numCols = r1[0]!.length;
  if (r2[0]!.length !== numCols) return false;
  if (gold === pred) return true;
  const g = prepare(gold);
  const p = prepare(pred);
  // Equal under the identity permutation: quick_rej passes and the identity is among the
  // permutations tried, so the official verdict is 1; most correct predictions end here.
  // Not when integral REALs are about: they can sort apart from equal INTEGERs in quick_rej.
  const plainNumbers = !gold.integralReals && !pred.integralReals;
  const identity = orderMatters ? g.rowKeys.every((k, i) => k === p.rowKeys[i]) : equalBags(rowBagOf(g), rowBagOf(p));
  if (plainNumbers && identity) return true;
  // One column: the identity is the only permutation, and sorting one cell changes nothing.
  if (numCols === 1) return identity;

  // quick_rej
  if (orderMatters) {
    // Row by row, stopping at the first difference (long ordered results rarely need all rows).
    const r1Reals = gold.integralReals ? new Set(gold.integralReals) : undefined;
    const r2Reals = pred.integralReals ? new Set(pred.integralReals) : undefined;
    for (let i = 0; i < r1.length; i++) {
      if (unorderRow(r1[i]!, i * numCols, r1Reals) !== unorderRow(r2[i]!, i * numCols, r2Reals)) return false;
    }
  } else if (!sameSet(unorderedSetOf(gold, g), unorderedSetOf(pred, p))) {
    return false;
  }

  const k1 = cellKeysOf(gold, g);
  const k2 = cellKeysOf(pred, p);
  const goldColumnSets = Array.from({ length: numCols }, (_, c) => new Set(k1.map((row) => row[c]!)));
  // candidates[i]: prediction columns that could stand in gold column i.
  const candidates = goldColumnSets.map((set) => {
    const ok: number[] = [];
    for (let j = 0; j < numCols; j++) if (k2.every((row) => set.has(row[j]!))) ok.push(j);
    return ok;
  });
  const perm: number[] = [];
  const used = new Array<boolean>(numCols).fill(false);
  const matches = (): boolean => {
    const identity = perm.every((j, i) => j === i);
    const permuted = identity ? p.rowKeys : k2.map((row) => joinCellKeys(perm.map((j) => row[j]!)));
    if (orderMatters) return permuted.every((r, i) => r === g.rowKeys[i]);
    return sameBag(rowBagOf(g), permuted);
  };
  const search = (i: number): boolean => {
    if (i === numCols) return matches();
    for (const j of candidates[i]!) {
      if (used[j]) continue;
      used[j] = true;
      perm.push(j);
      if (search(i + 1)) return true;
      perm.pop();
      used[j] = false;
    }
    return false;
  };
  return search(0);
}

function sameSet(sa: Set<string>, sb: Set<string>): boolean {
  if (sa.size !== sb.size) return false;
  for (const x of sa) if (!sb.has(x)) return false;
  return true;
}

function bag(items: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const x of items) m.set(x, (m.get(x) ?? 0) + 1);
  return m;
}

/** Two multisets, both already counted (no copy: the gold's is compared with many). */
function equalBags(a: Map<string, number>, b: Map<string, number>): boolean {
  if (a.size !== b.size) return false;
  for (const [k, n] of a) if (b.get(k) !== n) return false;
  return true;
}

function sameBag(expected: Map<string, number>, items: string[]): boolean {
  const m = new Map(expected);
  for (const x of items) {
    const n = m.get(x);
    if (!n) return false;
    m.set(x, n - 1);
  }
  return true;
}
