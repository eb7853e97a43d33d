/**
 * The text of a query with its whitespace runs made one space (none at either end, none beside
 * `(`, `)` or `,`), the ASCII letters outside quotes made lower case, and one `;` at its end
 * dropped: two queries with the same key differ only where SQLite does not look, so on one
 * database they return the same rows (SQLite folds the case of keywords, of bare identifiers and
 * functions, and of numbers' hex digits and exponents; whitespace only separates tokens, and a run
 * of it stays one separator; `(`, `)` and `,` are tokens of one character that no neighbour can
 * join, so the space beside them separates nothing; the statement ends where its `;` is, or where
 * the text does). Their column names can differ (an unaliased expression's is its text) and so can
 * their errors' wording or Python's refusal of one of them (`;;`), which is why an execution
 * process shares only rows (exec-child.ts), after preparing each query itself.
 *
 * Among the 23 bundled Spider systems' 13,353 distinct texts: 9,962 keys folding case and
 * whitespace runs, 8,463 with the spaces beside `(`, `)`, `,` and the final `;` dropped too (the
 * same spaces beside other operators would add 2 more, and they are not safe: `< =` is not `<=`).
 *
 * Undefined, so that nothing is shared, for text where that reasoning would need more care than it
 * is worth: anything but a SELECT or WITH statement (EXPLAIN's rows quote the names as written; a
 * PRAGMA's argument may be a name too), comments (a line comment ends at a newline, which a space
 * would not), parameters (`?`, `:name`, `@name`, `$name`, `#name`: their names are case-sensitive
 * and appear in errors), an unterminated quote, and text that could refer to a column by the name
 * its spelling gives it (NAMED_BY_TEXT: a quoted name holding whitespace, `(`, `)` or `,`; NATURAL
 * or USING).
 */
export function sqlVariantKey(sql: string): string | undefined {
  // One regular expression finds the quoted and bare segments, and replace() folds the bare ones
  // into one flat string (native code: the parent keys every query of a run; a loop over characters
  // in JavaScript cost ~10 µs a query before the optimising compiler had it, and appending each
  // segment to a string ~1.7× what replace() costs, its result then flattened again by the Map
  // that looks it up).
  unkeyable = false;
  SEGMENT.lastIndex = 0;
  let out = sql.replace(SEGMENT, foldSegment);
  if (unkeyable) return undefined;
  // Whitespace only separates: none at either end (inside, each run is one space already), nor
  // before a final `;`, which is dropped.
  if (out.charCodeAt(0) === 32) out = out.slice(1);
  if (out.charCodeAt(out.length - 1) === 32) out = out.slice(0, -1);
  if (out.charCodeAt(out.length - 1) === 59) out = out.slice(0, out.charCodeAt(out.length - 2) === 32 ? -2 : -1);
  return STATEMENT.test(out) ? out : undefined;
}

/** Set by foldSegment for a text that gets no key (replace() cannot stop midway). */
let unkeyable = false;

/** A segment as the key spells it: quoted text as it is, bare text folded. */
function foldSegment(text: string): string {
  const c = text.charCodeAt(0);
  if (c === 39 || c === 34 || c === 96 || c === 91) {
    // A lone quote character: an unterminated quote.
    if (text.length === 1) unkeyable = true;
    // A quoted name that could be an expression's own: see NAMED_BY_TEXT.
    else if (c !== 39 && NAMED_BY_TEXT.test(text.slice(1, -1))) unkeyable = true;
    return text;
  }
  if (NO_KEY.test(text) || NAME_MATCHING.test(text)) unkeyable = true;
  const spaced = text.replace(SPACES, ' ').replace(BESIDE_SEPARATOR, '$1');
  return NON_ASCII.test(spaced) ? spaced.replace(UPPER, lowerCase) : spaced.toLowerCase();
}

const lowerCase = (s: string): string => s.toLowerCase();

/**
 * A quoted segment (', " and ` with their quote doubled inside, [ ] without), a run of bare text, or
 * a quote character that opens no complete segment (then alone: unterminated).
 */
const SEGMENT = /'[^']*(?:''[^']*)*'|"[^"]*(?:""[^"]*)*"|`[^`]*(?:``[^`]*)*`|\[[^\]]*\]|[^'"`[]+|[\s\S]/g;
/** In bare text: a comment, or a parameter. */
const NO_KEY = /--|\/\*|[?:@$#]/;
/**
 * An unaliased expression's column is named by its text as written, spaces included (`count (*)`
 * and `count(*)` name theirs apart), and a query can refer to that name: as a quoted name (an outer
 * query's `"count(*)"`, an ORDER BY's), or by a join that matches columns by name. Where the text
 * can do that, two spellings could name a subquery's column apart and return different rows, so
 * none gets a key: a name in ", ` or [ ] holding whitespace, `(`, `)` or `,` (a bare name holds
 * none of them, and SQLite matches names whatever their case), and NATURAL or USING (USING also
 * takes a name in single quotes).
 */
const NAMED_BY_TEXT = /[\s(),]/;
const NAME_MATCHING = /(?<![\w$\u0080-\uffff])(?:natural|using)(?![\w$\u0080-\uffff])/i;
/** The whitespace SQLite skips between tokens. */
const SPACES = /[ \t\n\f\r]+/g;
/** `(`, `)` or `,` with the one space (a run folded already) on either side of it. */
const BESIDE_SEPARATOR = / ?([(),]) ?/g;
const NON_ASCII = /[^\x00-\x7f]/;

/** A SELECT, or a WITH (whose statement SQLite's read-only check leaves a SELECT), at the start. */
const STATEMENT = /^(select|with)(?![a-z0-9_$\u0080-\uffff])/;

const UPPER = /[A-Z]+/g;
