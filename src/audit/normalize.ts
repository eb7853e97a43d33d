import { createHash } from 'node:crypto';
import type { Cell, ExecResult } from '../execution/types.js';

/**
 * A result in normalized, comparable form. The audit's agreement is deliberately looser
 * than the official comparators: it asks "did these two queries answer the same thing?",
 * so strings are trimmed and case-folded, numeric strings read as numbers, NULL-likes
 * merged, floats rounded, row order and column order ignored, duplicates kept.
 */
export interface NormResult {
  ok: boolean;
  nRows: number;
  nCols: number;
  /** Hash of the multiset of rows (column order canonicalized). */
  sig: string;
  /** Hash of the set of rows (duplicates dropped): equal set, different multiset = a DISTINCT issue. */
  setSig: string;
  /** Canonical row keys, sorted (for subset tests). */
  rowKeys: string[];
  /** One key per column: the sorted multiset of its normalized values. */
  colKeys: string[];
  /** The single numeric value when the result is one cell holding a number. */
  scalar?: number;
  /** Every cell NULL (or no rows). */
  allNull: boolean;
}

const NULL_LIKE = new Set(['', 'null', 'none', 'nan', 'n/a']);
const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** Normalized text of one cell; numbers to 9 significant digits (float tolerance). */
export function normalizeCell(c: Cell): string {
  if (c === null) return '\u2400';
  if (typeof c === 'bigint') return c.toString();
  if (typeof c === 'number') return numKey(c);
  if (c instanceof Uint8Array) return 'x' + Buffer.from(c).toString('hex');
  const s = c.trim().toLowerCase();
  if (NULL_LIKE.has(s)) return '\u2400';
  if (NUMERIC.test(s)) return numKey(Number(s));
  return 's' + s;
}

function numKey(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (Number.isInteger(x)) return String(x);
  return String(Number(x.toPrecision(9)));
}

function hash(parts: readonly string[]): string {
  const h = createHash('sha1');
  for (const p of parts) h.update(p).update('\u0001');
  return h.digest('base64');
}

const EMPTY: NormResult = { ok: false, nRows: 0, nCols: 0, sig: 'invalid', setSig: 'invalid', rowKeys: [], colKeys: [], allNull: true };

const cache = new WeakMap<ExecResult, NormResult>();

/** Normalizes a result once; engines share result objects between identical queries, so the cache pays. */
export function normalizeResult(r: ExecResult | undefined): NormResult {
  if (!r || r.status !== 'ok') return EMPTY;
  const hit = cache.get(r);
  if (hit) return hit;
  const n = computeNorm(r);
  cache.set(r, n);
  return n;
}

function computeNorm(r: ExecResult): NormResult {
  const nCols = r.rows[0]?.length ?? r.columns.length;
  const cells = r.rows.map((row) => row.map(normalizeCell));
  // Canonical column order: sort columns by their value multisets, so SELECT a, b ≡ SELECT b, a.
  const colKeys = Array.from({ length: nCols }, (_, j) => hash(cells.map((row) => row[j] ?? '').sort()));
  const order = colKeys.map((k, j) => [k, j] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
  const rowKeys = cells.map((row) => order.map(([, j]) => row[j]).join('\u0002')).sort();
  let allNull = true;
  for (const row of cells) for (const c of row) if (c !== '\u2400') allNull = false;
  const distinct = rowKeys.filter((k, i) => i === 0 || rowKeys[i - 1] !== k);
  let scalar: number | undefined;
  if (r.rows.length === 1 && nCols === 1) {
    const v = r.rows[0]![0];
    if (typeof v === 'number') scalar = v;
    else if (typeof v === 'bigint') scalar = Number(v);
    else if (typeof v === 'string' && NUMERIC.test(v.trim())) scalar = Number(v.trim());
  }
  return {
    ok: true,
    nRows: r.rows.length,
    nCols,
    sig: hash([String(nCols), ...rowKeys]),
    setSig: hash([String(nCols), ...distinct]),
    rowKeys,
    colKeys: colKeys.slice().sort(),
    ...(scalar !== undefined ? { scalar } : {}),
    allNull,
  };
}

/** Both results valid and equal under the normalized comparison. */
export function sameResult(a: NormResult, b: NormResult): boolean {
  return a.ok && b.ok && a.sig === b.sig;
}

/** The result lists some row more than once (its multiset and its set differ); never for a failed result. */
export function hasRepeats(r: NormResult): boolean {
  return r.sig !== r.setSig;
}

/** a's rows form a strict sub-multiset of b's (same width). Both row-key lists are sorted. */
export function strictSubset(a: NormResult, b: NormResult): boolean {
  if (!a.ok || !b.ok || a.nCols !== b.nCols || a.nRows >= b.nRows || a.nRows === 0) return false;
  let j = 0;
  for (const k of a.rowKeys) {
    while (j < b.rowKeys.length && b.rowKeys[j]! < k) j++;
    if (j >= b.rowKeys.length || b.rowKeys[j] !== k) return false;
    j++;
  }
  return true;
}

/** Every column of a appears among b's columns and b has more (b selected extra columns). */
export function columnsContained(a: NormResult, b: NormResult): boolean {
  if (!a.ok || !b.ok || a.nCols >= b.nCols || a.nRows !== b.nRows || a.nRows === 0) return false;
  const pool = new Map<string, number>();
  for (const k of b.colKeys) pool.set(k, (pool.get(k) ?? 0) + 1);
  for (const k of a.colKeys) {
    const c = pool.get(k) ?? 0;
    if (c === 0) return false;
    pool.set(k, c - 1);
  }
  return true;
}

/** One result is the other's single number times 100 (percentage vs fraction). */
export function scaledBy100(a: NormResult, b: NormResult): boolean {
  if (a.scalar === undefined || b.scalar === undefined || a.scalar === 0 || b.scalar === 0) return false;
  const close = (x: number, y: number): boolean => Math.abs(x - y) <= 1e-6 * Math.max(1, Math.abs(y));
  return close(a.scalar * 100, b.scalar) || close(b.scalar * 100, a.scalar);
}
