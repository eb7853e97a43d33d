import type Database from 'better-sqlite3';
import { firstStatement } from './python-sqlite-input.js';
import type { Cell } from './types.js';
import { decodeUtf8Ignore, isValidUtf8 } from './utf8.js';

/**
 * TEXT cells whose bytes are not valid UTF-8, which better-sqlite3 hands over with U+FFFD in
 * place of the bad bytes. Called only for a result with a U+FFFD in some cell (rare: no benchmark
 * database here holds invalid UTF-8; computed text can, `CAST(x'ff' AS TEXT)`): the query runs
 * again wrapped so that every TEXT cell comes back as its bytes; each cell whose bytes are invalid
 * becomes their `errors="ignore"` decoding (test-suite-sql-eval's), and the message Python's
 * strict decoding (BIRD's) raises at the first of them, in fetch order, is returned.
 * Undefined when every cell is valid, or when the query cannot be wrapped (a PRAGMA): then the
 * cells stay as better-sqlite3 decoded them.
 */
export function markUndecodable(db: Database.Database, source: string, columns: string[], rows: Cell[][]): string | undefined {
  const raw = rawTextCells(db, source, columns.length);
  if (raw === undefined || raw.length !== rows.length) return undefined;
  // The re-run may return its rows in another order: rows are paired by their text as decoded
  // (rows alike in that are interchangeable). Only rows with a U+FFFD can hold invalid bytes.
  const byText = new Map<string, (Uint8Array | null)[][]>();
  for (const r of raw) {
    const key = JSON.stringify(r.map((b) => (b === null ? null : Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8'))));
    if (!key.includes('\uFFFD')) continue;
    const group = byText.get(key);
    if (group) group.push(r);
    else byText.set(key, [r]);
  }
  let message: string | undefined;
  for (const row of rows) {
    if (!row.some((v) => typeof v === 'string' && v.includes('\uFFFD'))) continue;
    const bytes = byText.get(JSON.stringify(row.map((v) => (typeof v === 'string' ? v : null))))?.pop();
    if (bytes === undefined) return undefined;
    bytes.forEach((b, c) => {
      if (b === null || isValidUtf8(b)) return;
      message ??= pythonDecodeError(columns[c]!, b);
      row[c] = decodeUtf8Ignore(b);
    });
  }
  return message;
}

/** Every row of the query with its TEXT cells as bytes and every other cell null; undefined if it cannot be wrapped. */
function rawTextCells(db: Database.Database, source: string, nCols: number): (Uint8Array | null)[][] | undefined {
  const { start, end } = firstStatement(source);
  const cols = Array.from({ length: nCols }, (_, i) => `c${i}`);
  // Newlines around the body: a trailing `--` comment must not swallow the closing parenthesis.
  const wrapped = `WITH sqlboard_raw(${cols.join(', ')}) AS (\n${source.slice(start, end)}\n) SELECT ${cols
    .map((c) => `CASE WHEN typeof(${c}) = 'text' THEN CAST(${c} AS BLOB) END`)
    .join(', ')} FROM sqlboard_raw`;
  try {
    const stmt = db.prepare(wrapped);
    if (!stmt.readonly || !stmt.reader) return undefined;
    return stmt.raw(true).all() as (Uint8Array | null)[][];
  } catch {
    return undefined;
  }
}

/**
 * Python's sqlite3 (3.11) message, built as it builds it: formatted into a 200-byte C buffer
 * (the text stops at a NUL, the whole at 198 bytes), then decoded as ASCII with every other
 * byte shown as U+FFFD.
 */
function pythonDecodeError(column: string, text: Uint8Array): string {
  const nul = text.indexOf(0);
  const bytes = Buffer.concat([
    Buffer.from(`Could not decode to UTF-8 column '${column}' with text '`, 'utf8'),
    nul >= 0 ? text.subarray(0, nul) : text,
    Buffer.from("'"),
  ]).subarray(0, 198);
  return Array.from(bytes, (b) => (b < 0x80 ? String.fromCharCode(b) : '\uFFFD')).join('');
}
