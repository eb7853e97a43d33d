import { rowKey } from '../values/python-value.js';
import { rowSetDigest } from './row-set.js';
import type { ExecResult } from './types.js';

// A result is compared with many others (the gold with every system's prediction): key it once.
const rowSets = new WeakMap<ExecResult, Set<string>>();

function rowSet(r: ExecResult): Set<string> {
  let set = rowSets.get(r);
  if (!set) {
    set = new Set(r.rows.map(rowKey));
    rowSets.set(r, set);
  }
  return set;
}

/**
 * A result as BIRD's evaluators fetch it: with Python's strict UTF-8 decoding, so TEXT that is
 * not valid UTF-8 makes it an execution error (the same object when it has none).
 */
export function birdView(r: ExecResult): ExecResult {
  return r.undecodable === undefined ? r : { status: 'error', columns: [], rows: [], error: r.undecodable, ms: r.ms };
}

/**
 * BIRD's official EX: `set(predicted_res) == set(ground_truth_res)` with Python equality;
 * an error or timeout on either side scores 0, undecodable TEXT included (birdView); two
 * empty results score 1.
 */
export function birdEqual(gold: ExecResult, pred: ExecResult): boolean {
  if (gold.status !== 'ok' || pred.status !== 'ok' || gold.undecodable !== undefined || pred.undecodable !== undefined) return false;
  if (gold === pred) return true;
  // A digest stands for rows that were never copied to this process (ExecResult.rowSet).
  if (gold.rowSet !== undefined || pred.rowSet !== undefined) {
    return (gold.rowSet ?? rowSetDigest(gold.rows)) === (pred.rowSet ?? rowSetDigest(pred.rows));
  }
  const g = rowSet(gold);
  const p = rowSet(pred);
  if (g.size !== p.size) return false;
  for (const k of p) if (!g.has(k)) return false;
  return true;
}
