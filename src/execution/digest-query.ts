import type Database from 'better-sqlite3';
import type { WireResult } from './pool-protocol.js';
import { rowSetDigest, rowSetDigestOfCells } from './row-set.js';
import { cellBytes, prepareQuery, ROW_BYTES, stopwatch, toCell, tooManyBytes, tooManyRows } from './run-query.js';
import type { Cell } from './types.js';
import { markUndecodable } from './undecodable-text.js';

/** What readCells read: the cells row after row, and whether a TEXT cell held U+FFFD. */
interface Cells {
  /** The text SQLite prepared. */
  source: string;
  columns: string[];
  cells: Cell[];
  rows: number;
  replacement: boolean;
}

/**
 * What `toWire(runQuery(...), { rows: false, rowSet: true })` gives (the same status, columns, error,
 * undecodable mark and digest), for a caller that wants only the row-set digest (the `bird`
 * comparison), with less work per row: the cells go into one array instead of one per row (a big
 * result's rows were copied by every garbage collection while it was read), and no integral REAL is
 * noted (the digest treats 3 and 3.0 alike, as Python does). The byte budget counts what runQuery
 * counts, row by row, and stops where it stops; like runQuery, the query runs once (and once more,
 * wrapped, only for text with U+FFFD, to tell text that is not UTF-8: undecodable-text.ts).
 */
export function digestQuery(db: Database.Database, sql: string, maxRows: number, maxBytes: number): WireResult {
  const elapsed = stopwatch();
  let read: Cells;
  let undecodable: string | undefined;
  let rows: Cell[][] | undefined;
  try {
    read = readCells(db, sql, maxRows, maxBytes);
    if (read.replacement) {
      // Rare (computed text, a database holding bytes that are not UTF-8): runQuery's rows and marking.
      const width = read.columns.length;
      rows = Array.from({ length: read.rows }, (_, r) => read.cells.slice(r * width, (r + 1) * width));
      undecodable = markUndecodable(db, read.source, read.columns, rows);
    }
  } catch (e) {
    return { status: 'error', columns: [], error: (e as Error).message, ms: elapsed() };
  }
  const ms = elapsed();
  try {
    const rowSet = rows ? rowSetDigest(rows) : rowSetDigestOfCells(read.cells, read.columns.length, read.rows);
    return { status: 'ok', columns: read.columns, ...(undecodable !== undefined ? { undecodable } : {}), ms, rowSet };
  } catch (e) {
    // As toWire: the digest's text is bounded as the rows' JSON is (row-set.ts), but should it still
    // not fit in a string, the result is kept as that error rather than ending the run.
    if (!(e instanceof RangeError)) throw e;
    return { status: 'error', columns: [], error: `result too large to keep in the run store (${e.message})`, ms };
  }
}

/** The query's cells, row after row; throws what runQuery reports. */
function readCells(db: Database.Database, sql: string, maxRows: number, maxBytes: number): Cells {
  const stmt = prepareQuery(db, sql);
  // Nothing but whitespace, comments and `;`: Python runs it and fetches no rows.
  if (stmt === undefined) return { source: sql, columns: [], cells: [], rows: 0, replacement: false };
  stmt.raw(true);
  stmt.safeIntegers(true);
  const columns = stmt.columns().map((c) => c.name);
  const width = columns.length;
  const cells: Cell[] = [];
  let bytes = 0;
  let n = 0;
  let replacement = false;
  for (const row of stmt.iterate() as IterableIterator<unknown[]>) {
    if (n >= maxRows) throw tooManyRows(maxRows);
    for (let c = 0; c < width; c++) {
      const v = row[c];
      if (!replacement && typeof v === 'string' && v.includes('\uFFFD')) replacement = true;
      // runQuery's own count and cells: the budget and the values are defined once.
      bytes += cellBytes(v);
      cells.push(toCell(v));
    }
    bytes += ROW_BYTES;
    if (bytes > maxBytes) throw tooManyBytes(maxBytes);
    n++;
  }
  return { source: stmt.source, columns, cells, rows: n, replacement };
}
