import { rowKey } from './python-value.js';
import type { ExecResult } from './types.js';

/**
 * BIRD's official EX: `set(predicted_res) == set(ground_truth_res)` with Python equality;
 * an error or timeout on either side scores 0; two empty results score 1.
 */
export function birdEqual(gold: ExecResult, pred: ExecResult): boolean {
  if (gold.status !== 'ok' || pred.status !== 'ok') return false;
  const g = new Set(gold.rows.map(rowKey));
  const p = new Set(pred.rows.map(rowKey));
  if (g.size !== p.size) return false;
  for (const k of p) if (!g.has(k)) return false;
  return true;
}
