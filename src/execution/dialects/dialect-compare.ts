import { softF1Rows } from '../soft-f1.js';
import type { PythonValue } from './postgres-python-values.js';
import { pythonKey, pythonRowKey } from './python-key.js';

/** A dialect query's outcome as the official evaluator sees it: the fetched rows as Python values, or an exception. */
export type DialectRun = { status: 'ok'; columns: string[]; rows: PythonValue[][] } | { status: 'error'; error: string };

/**
 * The official EX in PostgreSQL and MySQL: both queries ran and `set(pred) == set(gold)` under Python's equality;
 * a value Python cannot hash (list, dict) makes set() raise, so 0, like any error.
 */
export function dialectEx(pred: DialectRun, gold: DialectRun): 0 | 1 {
  if (pred.status !== 'ok' || gold.status !== 'ok') return 0;
  try {
    const p = new Set(pred.rows.map(pythonRowKey));
    const g = new Set(gold.rows.map(pythonRowKey));
    return p.size === g.size && [...p].every((k) => g.has(k)) ? 1 : 0;
  } catch {
    return 0;
  }
}

/**
 * The official Soft-F1 in PostgreSQL and MySQL: sqlboard's softF1Rows (which compares cells by equality only) over
 * the Python-equality keys of the values; an unhashable value makes the evaluator's set() raise: 0.
 */
export function dialectSoftF1(pred: DialectRun, gold: DialectRun): number {
  if (pred.status !== 'ok' || gold.status !== 'ok') return 0;
  try {
    const keys = (rows: PythonValue[][]) => rows.map((r) => r.map((v) => pythonKey(v)));
    return softF1Rows(keys(gold.rows), keys(pred.rows));
  } catch {
    return 0;
  }
}
