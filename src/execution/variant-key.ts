/**
 * The text of a query with its whitespace runs made one space (none at either end) and the ASCII
 * letters outside quotes made lower case: two queries with the same key differ only where SQLite
 * does not look, so on one database they return the same rows (SQLite folds the case of keywords,
 * of bare identifiers and functions, and of numbers' hex digits and exponents; whitespace only
 * separates tokens, and a run of it stays one separator). Their column names can differ (an
 * unaliased expression's is its text) and so can their errors' wording, which is why an execution
 * process shares only rows (exec-child.ts), after preparing each query itself.
 *
 * Undefined, so that nothing is shared, for text where that reasoning would need more care than it
 * is worth: anything but a SELECT or WITH statement (EXPLAIN's rows quote the names as written; a
 * PRAGMA's argument may be a name too), comments (a line comment ends at a newline, which a space
 * would not), parameters (`?`, `:name`, `@name`, `$name`, `#name`: their names are case-sensitive
 * and appear in errors), and an unterminated quote.
 */
export function sqlVariantKey(sql: string): string | undefined {
  let out = '';
  // The text since the last character that needed a look (sql.slice(from, i)), copied in one piece.
  let from = 0;
  let nonAscii = false;
  let space = false;
  const flush = (to: number): void => {
    if (to === from) return;
    const run = sql.slice(from, to);
    // toLowerCase folds non-ASCII letters too, which SQLite does not: those runs fold letter by letter.
    out += nonAscii ? run.replace(UPPER, (u) => u.toLowerCase()) : run.toLowerCase();
    nonAscii = false;
  };
  for (let i = 0; i < sql.length; ) {
    const c = sql.charCodeAt(i);
    // SQLite's whitespace: space, tab, newline, form feed, carriage return.
    if (c === 32 || c === 9 || c === 10 || c === 12 || c === 13) {
      flush(i);
      space = out.length > 0;
      from = ++i;
      continue;
    }
    if (space) {
      out += ' ';
      space = false;
    }
    if (c === 39 || c === 34 || c === 96 || c === 91) {
      // '…', "…", `…` (a doubled quote is one inside) and […]: copied as they are.
      flush(i);
      const close = c === 91 ? ']' : sql[i]!;
      let end = sql.indexOf(close, i + 1);
      while (end >= 0 && c !== 91 && sql[end + 1] === close) end = sql.indexOf(close, end + 2);
      if (end < 0) return undefined;
      out += sql.slice(i, end + 1);
      from = i = end + 1;
      continue;
    }
    if ((c === 45 && sql.charCodeAt(i + 1) === 45) || (c === 47 && sql.charCodeAt(i + 1) === 42)) return undefined;
    if (c === 63 || c === 58 || c === 64 || c === 36 || c === 35) return undefined;
    if (c > 127) nonAscii = true;
    i++;
  }
  flush(sql.length);
  return STATEMENT.test(out) ? out : undefined;
}

/** A SELECT, or a WITH (whose statement SQLite's read-only check leaves a SELECT), at the start. */
const STATEMENT = /^(select|with)(?![a-z0-9_$\u0080-\uffff])/;

const UPPER = /[A-Z]+/g;
