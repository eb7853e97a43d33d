import { sqlStringLiteral, tokenize, unquote } from '../sql/tokenize.js';

/**
 * better-sqlite3 is compiled with SQLITE_DQS=0, so `WHERE Airline = "JetBlue Airways"` fails with
 * `no such column: "JetBlue Airways"`, whereas a standard SQLite build (Python's sqlite3, which the
 * official evaluators use) first tries the identifier and then falls back to a string literal.
 * We reproduce exactly that fallback: only a double-quoted token that SQLite itself could not
 * resolve is rewritten as a single-quoted literal, and the query is prepared again.
 */
const UNRESOLVED = /^no such column: "((?:[^"]|"")*)"/;

/** The double-quoted text SQLite could not resolve as a column, if that is what `message` says. */
export function unresolvedDoubleQuoted(message: string): string | undefined {
  const m = UNRESOLVED.exec(message);
  return m ? m[1]!.split('""').join('"') : undefined;
}

/** Rewrites every double-quoted token spelling `text` as a string literal; undefined if none. */
export function rewriteDoubleQuoted(sql: string, text: string): string | undefined {
  let changed = false;
  const out = tokenize(sql)
    .map((t) => {
      if (t.kind === 'dquoted' && unquote(t) === text) {
        changed = true;
        return sqlStringLiteral(text);
      }
      return t.text;
    })
    .join('');
  return changed ? out : undefined;
}
