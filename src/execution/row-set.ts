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
  return rowKeysDigest(new Set(rows.map(rowKey)));
}

/** rowSetDigest from the set of the rows' keys (rowKey), for rows that were never kept. */
export function rowKeysDigest(distinct: ReadonlySet<string>): string {
  const keys = [...distinct].sort();
  // Length-prefixed, as in rowKey: no two different sets of keys feed the hash the same text.
  // Keys are hashed in runs of about 64 K characters: a call per key cost more than the keys,
  // and one text for all of them would double a big result's memory.
  const h = createHash('sha256');
  let text = '';
  for (const k of keys) {
    text += `${k.length}:${k}`;
    if (text.length >= 65536) {
      h.update(text);
      text = '';
    }
  }
  return h.update(text).digest('base64');
}
