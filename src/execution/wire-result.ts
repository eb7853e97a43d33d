import { decodeRows, encodeRows } from './cell-codec.js';
import type { ResultWants, WireResult } from './pool-protocol.js';
import { rowSetDigest } from './row-set.js';
import type { ExecResult } from './types.js';

/**
 * In the execution process: the result with what the parent wants of its rows, and no more
 * (without the rows, integralReals would point into nothing: they go too).
 */
export function toWire(result: ExecResult, want: ResultWants): WireResult {
  const { rows, integralReals, ...rest } = result;
  if (result.status !== 'ok') return rest;
  let rowsJson: string | undefined;
  let rowSet: string | undefined;
  try {
    if (want.rows) rowsJson = encodeRows(rows);
    if (want.rowSet) rowSet = rowSetDigest(rows);
  } catch (e) {
    // The byte budget keeps every result below what JSON and SQLite can hold; should one still
    // not fit, it is kept as the error it is rather than ending the run. (The digest's text is
    // bounded as the rows' JSON is, row-set.ts canonicalCell.)
    if (!(e instanceof RangeError)) throw e;
    return { status: 'error', columns: [], error: `result too large to keep in the run store (${e.message})`, ms: result.ms };
  }
  return {
    ...rest,
    ...(rowsJson !== undefined ? { rowsJson, ...(integralReals ? { integralReals } : {}) } : {}),
    ...(rowSet !== undefined ? { rowSet } : {}),
  };
}

/** In the parent: the result, with its rows decoded only when `withRows`. */
export function fromWire(wire: WireResult, withRows: boolean): ExecResult {
  const { rowsJson, ...rest } = wire;
  return { ...rest, rows: withRows && rowsJson !== undefined ? decodeRows(rowsJson) : [] };
}
