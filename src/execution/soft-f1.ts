import { cellKey, rowKey } from '../values/python-value.js';
import type { Cell, ExecResult } from './types.js';

/**
 * BIRD mini-dev's Soft-F1 of one item, as its evaluation_f1 computes it (written from its
 * documented behaviour, not copied). The quirks are part of the metric:
 *  - duplicate rows are dropped keeping the first occurrence, then gold and predicted rows are
 *    paired by position, so an unordered query whose rows come back in another order scores less;
 *  - within a pair, a predicted value matches when it occurs anywhere in the gold row (membership,
 *    not column position), and every count is divided by the gold row's width;
 *  - an unpaired gold row counts one gold-only, an unpaired predicted row one prediction-only;
 *  - two empty results score 1; an error on either side scores 0, TEXT that is not valid UTF-8
 *    included (Python's strict decoding raises on it).
 * Sums are plain left-to-right float additions, as Python 3.11's `sum` does, so the value matches
 * the official one to the last bit.
 */
export function softF1(gold: ExecResult, pred: ExecResult): number {
  if (gold.status !== 'ok' || pred.status !== 'ok' || gold.undecodable !== undefined || pred.undecodable !== undefined) return 0;
  return softF1Rows(gold.rows, pred.rows);
}

export function softF1Rows(goldRows: readonly Cell[][], predRows: readonly Cell[][]): number {
  if (goldRows.length === 0 && predRows.length === 0) return 1;
  const gold = distinctRows(goldRows);
  const pred = distinctRows(predRows);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  gold.forEach((g, i) => {
    const p = pred[i];
    if (!p) {
      tp += 0;
      fn += 1;
      return;
    }
    const [match, predOnly, goldOnly] = rowMatch(p, g);
    tp += match;
    fp += predOnly;
    fn += goldOnly;
  });
  for (let i = gold.length; i < pred.length; i++) {
    tp += 0;
    fp += 1;
    fn += 0;
  }
  const precision = tp + fp > 0 ? tp / (tp + fp) : 0;
  const recall = tp + fn > 0 ? tp / (tp + fn) : 0;
  return precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
}

/** Rows as cell keys, duplicates (by Python equality of tuples) dropped, first occurrence kept. */
function distinctRows(rows: readonly Cell[][]): string[][] {
  const seen = new Set<string>();
  const out: string[][] = [];
  for (const row of rows) {
    const key = rowKey(row);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(row.map(cellKey));
  }
  return out;
}

/** Match, prediction-only and gold-only shares of one row pair, each over the gold row's width. */
function rowMatch(pred: readonly string[], gold: readonly string[]): [number, number, number] {
  const width = gold.length;
  const goldSet = new Set(gold);
  const predSet = new Set(pred);
  let matches = 0;
  let predOnly = 0;
  for (const v of pred) {
    if (goldSet.has(v)) matches++;
    else predOnly++;
  }
  let goldOnly = 0;
  for (const v of gold) if (!predSet.has(v)) goldOnly++;
  return [matches / width, predOnly / width, goldOnly / width];
}
