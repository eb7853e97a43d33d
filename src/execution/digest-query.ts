import type Database from 'better-sqlite3';
import type { WireResult } from './pool-protocol.js';
import { rowSetDigestOfCells } from './row-set.js';
import { prepareQuery, ROW_BYTES, runQuery, stopwatch, tooManyBytes, tooManyRows } from './run-query.js';
import type { Cell } from './types.js';
import { toWire } from './wire-result.js';

/** 2^53: from here a double no longer holds every integer, so an INTEGER read as one may have lost digits. */
const EXACT_BELOW = 2 ** 53;

/**
 * What `toWire(runQuery(...), { rows: false, rowSet: true })` gives (the same status, columns, error and
 * digest), for a caller that wants only the row-set digest (the `bird` comparison), with less work
 * per row: INTEGERs are read as plain numbers (no bigint to make and convert back), the cells go
 * into one array instead of one per row (a big result's rows are copied by every garbage collection
 * while it is read), and no integral REAL is noted (the digest treats 3 and 3.0 alike, as Python does).
 * The byte budget counts what runQuery counts, row by row, and stops where it stops.
 *
 * Where that reading could differ, the query runs again through runQuery: a number of 2^53 or more
 * (an INTEGER that large needs a bigint to stay exact) and text with U+FFFD (it may be text that is
 * not valid UTF-8, which runQuery reads again and marks).
 */
export function digestQuery(db: Database.Database, sql: string, maxRows: number, maxBytes: number): WireResult {
  const elapsed = stopwatch();
  let read: { columns: string[]; cells: Cell[]; rows: number } | 'again';
  try {
    read = readCells(db, sql, maxRows, maxBytes);
  } catch (e) {
    return { status: 'error', columns: [], error: (e as Error).message, ms: elapsed() };
  }
  if (read === 'again') return toWire(runQuery(db, sql, maxRows, maxBytes), { rows: false, rowSet: true });
  const ms = elapsed();
  try {
    return { status: 'ok', columns: read.columns, ms, rowSet: rowSetDigestOfCells(read.cells, read.columns.length, read.rows) };
  } catch (e) {
    // As toWire: the digest's text is bounded as the rows' JSON is (row-set.ts), but should it still
    // not fit in a string, the result is kept as that error rather than ending the run.
    if (!(e instanceof RangeError)) throw e;
    return { status: 'error', columns: [], error: `result too large to keep in the run store (${e.message})`, ms };
  }
}

/** The query's cells, row after row; 'again' where runQuery must read it (see digestQuery); throws what runQuery reports. */
function readCells(db: Database.Database, sql: string, maxRows: number, maxBytes: number): { columns: string[]; cells: Cell[]; rows: number } | 'again' {
  const stmt = prepareQuery(db, sql);
  // Nothing but whitespace, comments and `;`: Python runs it and fetches no rows.
  if (stmt === undefined) return { columns: [], cells: [], rows: 0 };
  stmt.raw(true);
  stmt.safeIntegers(false);
  const columns = stmt.columns().map((c) => c.name);
  const width = columns.length;
  const cells: Cell[] = [];
  let bytes = 0;
  let n = 0;
  for (const row of stmt.iterate() as IterableIterator<Cell[]>) {
    if (n >= maxRows) throw tooManyRows(maxRows);
    for (let c = 0; c < width; c++) {
      const v = row[c]!;
      if (typeof v === 'string') {
        if (v.includes('\uFFFD')) return 'again';
        bytes += v.length + 8;
      } else if (typeof v === 'number') {
        if (v >= EXACT_BELOW || v <= -EXACT_BELOW) return 'again';
        bytes += 8;
      } else if (v instanceof Uint8Array) {
        bytes += v.byteLength + 8;
      } else {
        bytes += 8;
      }
      cells.push(v);
    }
    bytes += ROW_BYTES;
    if (bytes > maxBytes) throw tooManyBytes(maxBytes);
    n++;
  }
  return { columns, cells, rows: n };
}
