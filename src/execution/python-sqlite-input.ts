import { tokenize } from '../sql/tokenize.js';

/**
 * What Python's sqlite3 (the module both official evaluators execute with) refuses before
 * SQLite runs anything, and better-sqlite3 would let through:
 * - a NUL character ("the query contains a null character"; SQLite itself would stop reading there);
 * - text that is not valid Unicode (a lone surrogate cannot be encoded as UTF-8);
 * - anything after the first statement but whitespace and comments, an empty statement `;`
 *   included ("You can only execute one statement at a time."; better-sqlite3 also skips `;`).
 * Returns Python's message, or undefined when Python would run the text.
 */
export function pythonSqliteRefusal(sql: string): string | undefined {
  if (sql.includes('\0')) return 'the query contains a null character';
  if (LONE_SURROGATE.test(sql)) return 'the query is not valid Unicode (a lone surrogate)';
  if (!sql.includes(';')) return undefined;
  const first = sql.indexOf(';');
  // The common case, one `;` and only whitespace after it, needs no tokenizing.
  if (sql.indexOf(';', first + 1) < 0 && PY_SPACE_ONLY.test(sql.slice(first + 1))) return undefined;
  const { end } = firstStatement(sql);
  if (end === sql.length || onlySpaceAndComments(sql.slice(end + 1))) return undefined;
  return 'You can only execute one statement at a time.';
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The whitespace Python's sqlite3 skips after a statement (not \v: SQLite rejects it). */
const PY_SPACE_ONLY = /^[ \t\f\n\r]*$/;

/**
 * Where SQLite's first statement starts (after the empty statements SQLite skips: `; SELECT 1`
 * runs the SELECT) and ends: the offset of its `;`, or the text's length when none ends it.
 */
export function firstStatement(sql: string): { start: number; end: number } {
  let start: number | undefined;
  for (const t of tokenize(sql)) {
    if (t.kind === 'space' || t.kind === 'comment') continue;
    if (t.kind === 'op' && t.text === ';') {
      if (start !== undefined) return { start, end: t.start };
      continue;
    }
    start ??= t.start;
  }
  return { start: start ?? sql.length, end: sql.length };
}

/** Python's `lstrip_sql`: only ` \t\f\n\r`, `-- …` and `/* … *\/` (unterminated ones too). */
function onlySpaceAndComments(tail: string): boolean {
  for (const t of tokenize(tail)) {
    if (t.kind === 'comment') continue;
    if (t.kind === 'space' && PY_SPACE_ONLY.test(t.text)) continue;
    return false;
  }
  return true;
}
