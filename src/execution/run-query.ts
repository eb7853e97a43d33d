import type Database from 'better-sqlite3';
import { significantTokens, unquote } from '../sql/tokenize.js';
import { pythonSqliteRefusal } from './python-sqlite-input.js';
import { compatMessage } from './sqlite-compat.js';
import type { Cell, ExecResult } from './types.js';
import { markUndecodable } from './undecodable-text.js';

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** A refusal or failure that is the query's fault, reported as an execution error. */
class QueryError extends Error {}

/** The errors of a result over --max-rows and over --max-result-bytes (digest-query.ts gives them too). */
export const tooManyRows = (maxRows: number): QueryError =>
  new QueryError(`result too large: more than ${maxRows.toLocaleString('en-US')} rows (--max-rows)`);
export const tooManyBytes = (maxBytes: number): QueryError =>
  new QueryError(`result too large: more than ${maxBytes.toLocaleString('en-US')} bytes (--max-result-bytes)`);

/**
 * Executes one query on an open read-only connection, as a standard SQLite build would:
 * rows as arrays (duplicate column names survive), integers exact (bigint beyond ±2^53),
 * double-quoted strings read as SQLite's default build reads them (the connection's, dqs.ts),
 * TEXT that is not valid UTF-8 decoded as test-suite-sql-eval does and marked (ExecResult.undecodable), and nothing that could change the database allowed.
 */
export function runQuery(
  db: Database.Database,
  sql: string,
  maxRows: number,
  maxBytes = Number.POSITIVE_INFINITY,
  counted: { bytes: number } = { bytes: 0 },
): ExecResult {
  const elapsed = stopwatch();
  try {
    const stmt = prepareQuery(db, sql);
    // Nothing but whitespace, comments and `;`: Python runs it and fetches no rows.
    if (stmt === undefined) return { status: 'ok', columns: [], rows: [], ms: elapsed() };
    stmt.raw(true);
    stmt.safeIntegers(true);
    const columns = stmt.columns().map((c) => c.name);
    const rows: Cell[][] = [];
    const integralReals: number[] = [];
    // The byte budget is counted as rows are stepped, so a huge result stops here, in the execution
    // process, instead of reaching the parent and the run store (see cellBytes for what counts).
    let bytes = 0;
    // better-sqlite3 shows TEXT that is not valid UTF-8 with U+FFFD; such a result is looked at again.
    let replacement = false;
    let n = 0;
    for (const row of stmt.iterate() as IterableIterator<unknown[]>) {
      if (n >= maxRows) throw tooManyRows(maxRows);
      // With safe integers on, INTEGER arrives as bigint and REAL as number: note integral REALs
      // before both become plain numbers.
      for (let c = 0; c < row.length; c++) {
        const v = row[c];
        if (typeof v === 'number' && Number.isInteger(v)) integralReals.push(n * row.length + c);
        else if (typeof v === 'string' && !replacement && v.includes('\uFFFD')) replacement = true;
        bytes += cellBytes(v);
        row[c] = toCell(v);
      }
      bytes += ROW_BYTES;
      if (bytes > maxBytes) throw tooManyBytes(maxBytes);
      rows.push(row as Cell[]);
      n++;
    }
    counted.bytes = bytes;
    const undecodable = replacement ? markUndecodable(db, stmt.source, columns, rows) : undefined;
    return {
      status: 'ok',
      columns,
      rows,
      ...(integralReals.length > 0 ? { integralReals } : {}),
      ...(undecodable !== undefined ? { undecodable } : {}),
      ms: elapsed(),
    };
  } catch (e) {
    return { status: 'error', columns: [], rows: [], error: (e as Error).message, ms: elapsed() };
  }
}

/**
 * Everything runQuery does before it steps a query: the refusals, prepare (on a connection with
 * double-quoted strings on, dqs.ts), and the check that the statement only reads. Throws QueryError for the query's fault;
 * undefined for text with no statement.
 */
export function prepareQuery(db: Database.Database, sql: string): Database.Statement | undefined {
  // What Python's sqlite3 (both official evaluators') refuses: a NUL, a second statement, even `;`.
  const refusal = pythonSqliteRefusal(sql);
  if (refusal !== undefined) throw new QueryError(refusal);
  refuseForbidden(sql);
  const stmt = prepareStatement(db, sql);
  // reader: returns rows (excludes ATTACH, VACUUM INTO, CREATE, state-setting PRAGMAs);
  // readonly: cannot write the database file (excludes PRAGMA journal_mode=..., INSERT ... RETURNING).
  if (stmt !== undefined && (!stmt.reader || !stmt.readonly)) {
    throw new QueryError('refused: only read-only queries that return rows may run against a benchmark database');
  }
  return stmt;
}

/**
 * A query prepared as runQuery prepares it, but not run: its columns (status 'ok', no rows), or the
 * error runQuery would give before the first step. For a query whose rows are known from another
 * text with the same variant key (variant-key.ts).
 */
export function prepareOnly(db: Database.Database, sql: string): ExecResult {
  const elapsed = stopwatch();
  try {
    const stmt = prepareQuery(db, sql);
    return { status: 'ok', columns: stmt === undefined ? [] : stmt.columns().map((c) => c.name), rows: [], ms: elapsed() };
  } catch (e) {
    return { status: 'error', columns: [], rows: [], error: (e as Error).message, ms: elapsed() };
  }
}

/** Milliseconds since it was made. */
export function stopwatch(): () => number {
  const started = process.hrtime.bigint();
  return () => Number(process.hrtime.bigint() - started) / 1e6;
}

/** What a row counts against the byte budget besides its cells (its array costs about that much). */
export const ROW_BYTES = 16;

/**
 * What one cell counts against the byte budget: a string its length, a blob its bytes, anything
 * else 8; a string or blob 8 more. The run store's JSON spends at most 6 characters per counted byte (a control character
 * becomes \\u0000, a number up to 25 characters), which is what bounds MAX_RESULT_BYTES.
 */
export function cellBytes(v: unknown): number {
  if (typeof v === 'string') return v.length + 8;
  if (v instanceof Uint8Array) return v.byteLength + 8;
  return 8;
}

export function toCell(v: unknown): Cell {
  if (typeof v === 'bigint') return v <= SAFE && v >= -SAFE ? Number(v) : v;
  if (v === null || typeof v === 'number' || typeof v === 'string') return v;
  if (v instanceof Uint8Array) return new Uint8Array(v);
  return String(v);
}

function refuseForbidden(sql: string): void {
  if (/pragma/i.test(sql)) refuseStatePragmas(sql);
  if (!/load_extension/i.test(sql)) return;
  for (const t of significantTokens(sql)) {
    if (t.kind === 'word' && t.text.toLowerCase() === 'load_extension') {
      throw new QueryError('refused: load_extension() may not be called');
    }
  }
}

/** PRAGMAs that only read, with any argument (a table or index name, a row limit). */
const READING_PRAGMAS = new Set([
  'table_info', 'table_xinfo', 'table_list', 'index_list', 'index_info', 'index_xinfo', 'foreign_key_list',
  'foreign_key_check', 'database_list', 'collation_list', 'function_list', 'module_list', 'pragma_list',
  'compile_options', 'integrity_check', 'quick_check',
]);
/** PRAGMAs that read a value when given bare, and set it when given `= x` or `(x)`. */
const BARE_READING_PRAGMAS = new Set([
  'user_version', 'schema_version', 'application_id', 'data_version', 'page_count', 'page_size',
  'freelist_count', 'encoding', 'auto_vacuum', 'journal_mode', 'foreign_keys', 'case_sensitive_like',
]);

/**
 * Only PRAGMAs that read may run. The check comes before prepare because SQLite applies many
 * PRAGMAs while compiling them (busy_timeout, mmap_size, locking_mode, threads, heap limits):
 * checking the prepared statement afterwards, as for writes, would be too late, and the setting
 * would stay on the execution process's cached connection for every later query.
 */
function refuseStatePragmas(sql: string): void {
  const tokens = significantTokens(sql);
  const word = (i: number): string | undefined => (tokens[i]?.kind === 'word' ? tokens[i]!.text.toLowerCase() : undefined);
  for (let i = 0; i < tokens.length; i++) {
    const atStart = i === 0 || tokens[i - 1]!.text === ';';
    if (!atStart) continue;
    let j = i;
    if (word(j) === 'explain') j += word(j + 1) === 'query' && word(j + 2) === 'plan' ? 3 : 1;
    if (word(j) !== 'pragma') continue;
    // PRAGMA [schema.]name [= value | (value)]
    let k = j + 1;
    if (tokens[k + 1]?.text === '.') k += 2;
    const name = unquote(tokens[k] ?? { kind: 'word', text: '', start: 0 }).toLowerCase();
    const next = tokens[k + 1]?.text;
    const bare = next === undefined || next === ';';
    if (READING_PRAGMAS.has(name) || (bare && BARE_READING_PRAGMAS.has(name))) continue;
    throw new QueryError(
      `refused: PRAGMA ${name || '(none)'}${bare ? '' : ' with a value'} may change the connection; only reading PRAGMAs (table_info, index_list, foreign_key_list, ...) may run`,
    );
  }
}

/** Prepares on a connection with double-quoted strings on (dqs.ts): SQLite resolves each "name" itself. */
function prepareStatement(db: Database.Database, sql: string): Database.Statement | undefined {
  try {
    return db.prepare(sql);
  } catch (e) {
    const msg = (e as Error).message;
    if (/contains no statements/.test(msg)) return undefined;
    if (/more than one statement/.test(msg)) {
      throw new QueryError('refused: several statements in one query (only one SELECT may run)');
    }
    throw new QueryError(compatMessage(msg));
  }
}
