import { createHash } from 'node:crypto';
import { rowKey } from './python-value.js';
import type { Cell } from './types.js';

/**
 * A digest of a result's rows as a Python set: two results get the same digest exactly when
 * `set(a) == set(b)` in Python (BIRD's comparison), up to a SHA-256 collision, which nobody can
 * make on purpose. The execution processes compute it where the rows are produced, so a `bird`
 * comparison needs neither the rows in the parent nor their copy over IPC.
 */
export function rowSetDigest(rows: readonly (readonly Cell[])[]): string {
  const keys = [...new Set(rows.map(rowKey))].sort();
  const h = createHash('sha256');
  // Length-prefixed, as in rowKey: no two different sets of keys feed the hash the same text.
  for (const k of keys) h.update(`${k.length}:${k}`);
  return h.digest('base64');
}
