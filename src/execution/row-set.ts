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
  return rowKeysDigest(new Set(rows.map(rowKey)), rows[0]?.length ?? 0);
}

/** Keys joined per hash update: one text for all of them would double a big result's memory. */
const KEYS_PER_UPDATE = 4096;

/**
 * rowSetDigest from the set of the rows' keys (rowKey) and the number of cells in a row. A key is
 * its row's cells, each prefixed with its length, so once the row length is known the sorted keys
 * joined with nothing between them still spell exactly one set; the length goes first. No rows:
 * one digest whatever the columns, as Python's `set() == set()`. (Prefixing every key with its own
 * length instead cost more than the keys: a string built per key, then copied again.)
 */
export function rowKeysDigest(distinct: ReadonlySet<string>, cellsPerRow: number): string {
  const h = createHash('sha256');
  if (distinct.size === 0) return h.digest('base64');
  const keys = [...distinct];
  if (keys.length > 1) keys.sort();
  h.update(`${cellsPerRow}\n`);
  for (let at = 0; at < keys.length; at += KEYS_PER_UPDATE) h.update(keys.slice(at, at + KEYS_PER_UPDATE).join(''));
  return h.digest('base64');
}
