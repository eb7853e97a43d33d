/**
 * A never-throwing wrapper around node-sql-parser for SQLite queries, plus table
 * extraction with a token-based fallback for the queries the parser rejects.
 *
 * node-sql-parser's SQLite grammar rejects some valid SQLite (certain window functions,
 * keywords used as table names such as `FROM SHOW`), so we try a few dialect/rewrite
 * combinations in order and report which one worked.
 */
import { createRequire } from 'node:module';
import type { Parser } from 'node-sql-parser';
import { significantTokens, unquote, type Token } from './tokenize.js';

/** How a query was finally parsed; `quoted-*` means table names were quoted first. */
export type ParseMode = 'sqlite' | 'mysql' | 'quoted-sqlite' | 'quoted-mysql';

export type ParseResult = { ok: true; ast: unknown; mode: ParseMode } | { ok: false; error: string };

interface FullParse {
  ast: unknown;
  mode: ParseMode;
  tableList: string[];
}

let parser: Parser | undefined;
/**
 * node-sql-parser takes over 0.1 s to load, so it loads on the first parse rather than with every
 * module that imports this one (every CLI command did). It is CommonJS: require keeps this synchronous.
 */
function sqlParser(): Parser {
  if (!parser) {
    const { Parser: P } = createRequire(import.meta.url)('node-sql-parser') as typeof import('node-sql-parser');
    parser = new P();
  }
  return parser;
}

// Parsing a query is far slower than a lookup, and the audit's two table LFs ask for the
// tables of the same gold and rival SQL in turn; a small bounded cache parses each once.
const CACHE_LIMIT = 2000;
const cache = new Map<string, FullParse | { error: string }>();

/** Parses one SQLite query; never throws. */
export function parseSql(sql: string): ParseResult {
  const r = fullParse(sql);
  return 'error' in r ? { ok: false, error: r.error } : { ok: true, ast: r.ast, mode: r.mode };
}

/** Table names the query reads (as written, de-duplicated, in order of first mention). */
export function tablesOf(sql: string): string[] {
  const r = fullParse(sql);
  if (!('error' in r)) {
    const names = r.tableList.map((entry) => entry.split('::').slice(2).join('::')).filter((t) => t.length > 0);
    if (names.length > 0) return unique(names);
  }
  return tablesFromTokens(sql);
}

function fullParse(sql: string): FullParse | { error: string } {
  const hit = cache.get(sql);
  if (hit) return hit;
  const result = tryModes(sql);
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(sql, result);
  return result;
}

/**
 * node-sql-parser is a recursive-descent parser with no depth bound of its own: past a few thousand
 * nested parentheses it overflows the stack. Text nested deeper than this (counted over every
 * parenthesis, quoted or not: a bound, not a parse) or longer than MAX_PARSE_CHARS is not given to
 * it; callers then fall back to the token-based readings, which are linear.
 */
const MAX_PARSE_NESTING = 200;
const MAX_PARSE_CHARS = 200_000;

function tooBigToParse(sql: string): boolean {
  if (sql.length > MAX_PARSE_CHARS) return true;
  let depth = 0;
  for (let i = 0; i < sql.length; i++) {
    const c = sql.charCodeAt(i);
    if (c === 40 && ++depth > MAX_PARSE_NESTING) return true;
    if (c === 41) depth--;
  }
  return false;
}

function tryModes(sql: string): FullParse | { error: string } {
  if (tooBigToParse(sql)) return { error: `not parsed: longer than ${MAX_PARSE_CHARS} characters or nested deeper than ${MAX_PARSE_NESTING} parentheses` };
  let firstError = '';
  const attempts: Array<[ParseMode, string, 'sqlite' | 'mysql']> = [
    ['sqlite', sql, 'sqlite'],
    ['mysql', sql, 'mysql'],
  ];
  const quoted = quoteTableNames(sql);
  if (quoted !== sql) {
    attempts.push(['quoted-sqlite', quoted, 'sqlite'], ['quoted-mysql', quoted.replace(/"/g, '`'), 'mysql']);
  }
  for (const [mode, text, database] of attempts) {
    try {
      const r = sqlParser().parse(text, { database });
      const ast = Array.isArray(r.ast) ? (r.ast.length === 1 ? r.ast[0] : r.ast) : r.ast;
      return { ast, mode, tableList: r.tableList };
    } catch (e) {
      if (!firstError) firstError = e instanceof Error ? e.message : String(e);
    }
  }
  return { error: firstError || 'unparseable SQL' };
}

const FROM_LIKE = new Set(['from', 'join']);

/**
 * Double-quotes bare words used as table names (after FROM/JOIN or a comma in a FROM
 * list): it lets the parser accept keywords used as names, e.g. Spider's `FROM SHOW`.
 */
function quoteTableNames(sql: string): string {
  const toks = significantTokens(sql);
  const edits: Token[] = [];
  forEachTableToken(toks, (t) => {
    if (t.kind === 'word') edits.push(t);
  });
  let out = sql;
  for (const t of edits.reverse()) {
    out = out.slice(0, t.start) + `"${t.text}"` + out.slice(t.start + t.text.length);
  }
  return out;
}

/** Calls `f` with every token that names a table in a FROM clause (best effort). */
function forEachTableToken(toks: Token[], f: (t: Token) => void): void {
  let inFrom = false;
  let depthAtFrom = 0;
  let depth = 0;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!;
    const lower = t.text.toLowerCase();
    if (t.text === '(') depth++;
    else if (t.text === ')') {
      depth--;
      if (depth < depthAtFrom) inFrom = false;
    }
    const prev = toks[i - 1];
    const prevLower = prev?.text.toLowerCase() ?? '';
    const afterFromWord = prev !== undefined && prev.kind === 'word' && FROM_LIKE.has(prevLower);
    const afterComma = inFrom && depth === depthAtFrom && prevLower === ',';
    if ((afterFromWord || afterComma) && (t.kind === 'word' || t.kind === 'dquoted' || t.kind === 'quotedIdent')) {
      if (lower !== 'select') f(t);
    }
    if (t.kind === 'word') {
      if (lower === 'from') {
        inFrom = true;
        depthAtFrom = depth;
      } else if (inFrom && depth === depthAtFrom && FROM_END.has(lower)) inFrom = false;
    }
  }
}

const FROM_END = new Set(['where', 'group', 'order', 'limit', 'having', 'union', 'intersect', 'except', 'window']);

/** Table names found from tokens alone: the fallback when no parser mode accepts the query. */
export function tablesFromTokens(sql: string): string[] {
  const names: string[] = [];
  forEachTableToken(significantTokens(sql), (t) => names.push(unquote(t)));
  return unique(names);
}

function unique(xs: string[]): string[] {
  return [...new Set(xs)];
}
