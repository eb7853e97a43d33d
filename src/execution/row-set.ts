import { createHash, hash } from 'node:crypto';
import type { Cell } from './types.js';

/**
 * A digest of a result's rows as a Python set: two results get the same digest exactly when
 * `set(a) == set(b)` in Python (BIRD's comparison), up to a SHA-256 collision, which nobody can
 * make on purpose. The execution processes compute it where the rows are produced, so a `bird`
 * comparison needs neither the rows in the parent nor their copy over IPC.
 *
 * What is hashed: the distinct rows, each as its canonical JSON (canonicalRow), in one canonical
 * order (distinctInOrder), written as JSON arrays of up to ROWS_PER_UPDATE rows (one array when
 * they fit, so where the arrays split depends on the number of distinct rows alone). JSON delimits every
 * string, row and array, so the text spells exactly one sequence of rows, each with its own length;
 * the order is a function of the set alone, so the text is too. No rows: nothing is hashed, one
 * digest whatever the columns, as Python's `set() == set()`.
 *
 * Why not sort key strings (as before): building a key string per row and sorting those cost more
 * than running most queries (the strings built by concatenation had to be flattened, then compared
 * character by character). Here the rows SQLite gave are ordered by a number read from a few
 * characters of their first cells (a typed-array sort, in native code), and only rows whose numbers
 * tie are compared cell by cell; only the distinct rows are ever serialised, by JSON.stringify.
 * `rows` is not modified.
 */
export function rowSetDigest(rows: readonly (readonly Cell[])[], sortBy: SortBy = 'auto'): string {
  const width = rows.length === 0 ? 0 : rows[0]!.length;
  const cells = new Array<Cell>(rows.length * width);
  for (let r = 0, at = 0; r < rows.length; r++) for (let c = 0; c < width; c++) cells[at++] = rows[r]![c]!;
  return rowSetDigestOfCells(cells, width, rows.length, sortBy);
}

/**
 * rowSetDigest of `count` rows of `width` cells each, laid out one row after another in `cells`
 * (row r's cell c at r × width + c). An execution process that only needs the digest keeps a
 * result so: one array instead of one per row, which a big result's garbage collections copied
 * over and over while it was being read.
 */
export function rowSetDigestOfCells(cells: readonly Cell[], width: number, count: number, sortBy: SortBy = 'auto'): string {
  const rows = new FlatRows(cells, width);
  // Most results have no row or one: no sort, one hash call.
  if (count === 0) return EMPTY;
  if (count === 1) return hash('sha256', JSON.stringify([canonicalRow(rows.row(0))]), 'base64');
  const distinct = distinctInOrder(rows, count, sortBy);
  const text = (from: number, to: number): string => {
    const out = new Array<readonly unknown[]>(to - from);
    for (let k = from; k < to; k++) out[k - from] = canonicalRow(rows.row(distinct[k]!));
    return JSON.stringify(out);
  };
  if (distinct.length <= ROWS_PER_UPDATE) return hash('sha256', text(0, distinct.length), 'base64');
  const h = createHash('sha256');
  for (let at = 0; at < distinct.length; at += ROWS_PER_UPDATE) h.update(text(at, Math.min(at + ROWS_PER_UPDATE, distinct.length)));
  return h.digest('base64');
}

/**
 * How distinctInOrder sorts (both give the one order): 'auto' by comparator for few rows (no typed
 * arrays to allocate) or more than 2^21 (an index no longer fits), else packed; the others for tests.
 */
export type SortBy = 'auto' | 'packed' | 'comparator';

/** The digest of no rows (nothing hashed). */
const EMPTY = hash('sha256', '', 'base64');
/** Rows serialised per hash update: one text for all of them would double a big result's memory. */
const ROWS_PER_UPDATE = 4096;
/** 2^21: a row's index fits below a sample times this in a double (32 + 21 = 53 bits). */
const INDEX_SPAN = 2 ** 21;
/** Below this many rows, the comparator sort costs less than allocating the typed arrays. */
const PACK_FROM = 32;

/** Rows of one width laid out in one array of cells. */
class FlatRows {
  constructor(
    readonly cells: readonly Cell[],
    readonly width: number,
  ) {}

  /** A copy of row r's cells (for its JSON). */
  row(r: number): Cell[] {
    return this.cells.slice(r * this.width, (r + 1) * this.width);
  }

  /**
   * A 32-bit number from a row's first two cells, cheap to compute (a few characters of a string,
   * not all of them). Rows Python calls equal get the same number (1 and 1.0, -0.0 and 0: a number's
   * value, not its type, goes in); unequal rows may too, and are then told apart by compare.
   * A prediction that makes every row's sample tie costs only a comparator sort, never a wrong verdict.
   */
  sample(r: number): number {
    const at = r * this.width;
    let h = this.width === 0 ? 0 : cellSample(this.cells[at]!);
    if (this.width > 1) h = Math.imul(h ^ 0x9e3779b9, 0x01000193) ^ cellSample(this.cells[at + 1]!);
    return h >>> 0;
  }

  /**
   * A total order on rows that is 0 exactly when Python's tuples compare equal: None < numbers < str
   * < bytes, numbers by value (a bigint and a double compare exactly in JavaScript, as in Python),
   * str by UTF-16 units, bytes by bytes. Any order would do as long as it is one order; this one is cheap.
   */
  compare(a: number, b: number): number {
    const w = this.width;
    for (let i = 0, x = a * w, y = b * w; i < w; i++, x++, y++) {
      const c = compareCells(this.cells[x]!, this.cells[y]!);
      if (c !== 0) return c;
    }
    return 0;
  }
}

/**
 * The distinct rows' numbers in the canonical order: by sample, then by compare. Both are functions
 * of a row's Python value (rows Python calls equal get the same sample and compare 0), so the order
 * of the distinct rows depends on the set alone, never on the order or repeats SQLite gave. Equal
 * rows end up next to each other (same sample, comparing 0), where the first one is kept.
 */
function distinctInOrder(rows: FlatRows, count: number, sortBy: SortBy): number[] {
  const packed = count <= INDEX_SPAN && (sortBy === 'packed' || (sortBy === 'auto' && count >= PACK_FROM));
  return packed ? distinctPacked(rows, count) : distinctByComparator(rows, count);
}

function distinctByComparator(rows: FlatRows, count: number): number[] {
  const samples = new Array<number>(count);
  const order = new Array<number>(count);
  for (let r = 0; r < count; r++) {
    samples[r] = rows.sample(r);
    order[r] = r;
  }
  order.sort((a, b) => samples[a]! - samples[b]! || rows.compare(a, b));
  const distinct = [order[0]!];
  for (let k = 1; k < count; k++) {
    const [a, b] = [order[k - 1]!, order[k]!];
    if (samples[a] !== samples[b] || rows.compare(a, b) !== 0) distinct.push(b);
  }
  return distinct;
}

function distinctPacked(rows: FlatRows, count: number): number[] {
  // sample * 2^21 + index is exact in a double and sorts by sample, then index: a native sort.
  const packed = new Float64Array(count);
  for (let r = 0; r < count; r++) packed[r] = rows.sample(r) * INDEX_SPAN + r;
  packed.sort();
  const distinct: number[] = [];
  const sampleOf = (k: number): number => Math.floor(packed[k]! / INDEX_SPAN);
  const rowOf = (k: number): number => packed[k]! % INDEX_SPAN;
  for (let i = 0; i < count; ) {
    const s = sampleOf(i);
    let j = i + 1;
    while (j < count && sampleOf(j) === s) j++;
    if (j === i + 1) {
      distinct.push(rowOf(i));
    } else {
      // A tie: rows with one sample, in the order compare gives, equal ones once.
      const group: number[] = [];
      for (let k = i; k < j; k++) group.push(rowOf(k));
      group.sort((a, b) => rows.compare(a, b));
      distinct.push(group[0]!);
      for (let k = 1; k < group.length; k++) if (rows.compare(group[k - 1]!, group[k]!) !== 0) distinct.push(group[k]!);
    }
    i = j;
  }
  return distinct;
}

const F64 = new Float64Array(1);
const U32 = new Uint32Array(F64.buffer);

function cellSample(v: Cell): number {
  if (typeof v === 'string') {
    const n = v.length;
    if (n === 0) return 0x2545f491;
    return Math.imul(n ^ (v.charCodeAt(0) << 16), 0x01000193) ^ (v.charCodeAt(n >> 1) << 8) ^ Math.imul(v.charCodeAt(n - 1), 0x5bd1e995);
  }
  if (typeof v === 'number' || typeof v === 'bigint') {
    // A big integer goes in as the double nearest to it: exactly that double when they are equal.
    const d = typeof v === 'bigint' ? Number(v) : v + 0; // + 0 turns -0 into 0
    if ((d | 0) === d) return d ^ 0x1b56c4e9;
    if (d !== d) return 0x68e31da4; // NaN (which SQLite never returns)
    F64[0] = d;
    return Math.imul(U32[0]!, 0x01000193) ^ U32[1]!;
  }
  if (v === null) return 0x3c6ef372;
  return v.length ^ 0x510e527f;
}

function compareCells(a: Cell, b: Cell): number {
  if (a === b) return 0;
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra === STR) return (a as string) < (b as string) ? -1 : 1;
  if (ra === NUM) {
    if (a! < b!) return -1;
    if (a! > b!) return 1;
    // eslint-disable-next-line eqeqeq -- a bigint and a double that are equal (2n**63n and 2**63)
    if (a == b) return 0;
    // A NaN, after every other number; NaNs alike, as their canonical JSON is.
    const an = Number.isNaN(a);
    return an === Number.isNaN(b) ? 0 : an ? 1 : -1;
  }
  if (ra === BYTES) return Buffer.compare(a as Uint8Array, b as Uint8Array);
  return 0;
}

const NONE = 0;
const NUM = 1;
const STR = 2;
const BYTES = 3;

function rank(v: Cell): number {
  if (typeof v === 'string') return STR;
  if (typeof v === 'number' || typeof v === 'bigint') return NUM;
  return v === null ? NONE : BYTES;
}

/**
 * A row as JSON values that are equal exactly when Python's are: a string stays a string, None
 * null, a safe integer or a non-integral finite double its number (JSON writes 3.0 as 3, as Python
 * compares it, and -0 as 0); what JSON cannot write exactly becomes an object no string or number
 * can be (canonicalCell). The row itself when no cell needs that (the usual case).
 */
function canonicalRow(row: readonly Cell[]): readonly unknown[] {
  for (let i = 0; i < row.length; i++) {
    const v = row[i];
    if (typeof v === 'string' || v === null) continue;
    if (typeof v === 'number' && (Number.isSafeInteger(v) || (Number.isFinite(v) && !Number.isInteger(v)))) continue;
    return row.map(canonicalCell);
  }
  return row;
}

/** 2^64: no SQLite INTEGER is this large (they are 64-bit). */
const INT64_SPAN = 2 ** 64;

/**
 * Any other integer is {"i": digits} below 2^64 and, from there, {"f": the double's digits} when a
 * double equals it (2**70 == 2.0**70 in Python), else {"i": digits}: so no cell's JSON takes more
 * than 32 characters for the 8 bytes it counts against the byte budget (1e300 written out in full
 * would take 301). {"f": ...} also holds ±inf and nan, {"b": base64} bytes. Every cell's JSON thus
 * stays within 6 characters per counted byte, the bound the run store's JSON keeps too
 * (run-query.ts cellBytes), so a digest's text fits in a string whenever the rows' JSON would.
 */
function canonicalCell(v: Cell): unknown {
  if (typeof v === 'string' || v === null) return v;
  if (typeof v === 'number') {
    if (Number.isSafeInteger(v) || (Number.isFinite(v) && !Number.isInteger(v))) return v + 0;
    if (Number.isInteger(v) && Math.abs(v) < INT64_SPAN) return { i: BigInt(v).toString() };
    return { f: String(v) };
  }
  if (typeof v === 'bigint') {
    const d = Number(v);
    if (Number.isSafeInteger(d) && BigInt(d) === v) return d;
    return Math.abs(d) >= INT64_SPAN && Number.isFinite(d) && BigInt(d) === v ? { f: String(d) } : { i: v.toString() };
  }
  return { b: Buffer.from(v).toString('base64') };
}
