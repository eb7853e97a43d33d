/**
 * A never-throwing wrapper around node-sql-parser for SQLite queries, plus table and
 * column extraction with a token-based fallback for the queries the parser rejects.
 *
 * node-sql-parser's SQLite grammar rejects some valid SQLite (certain window functions,
 * keywords used as table names such as `FROM SHOW`), so we try a few dialect/rewrite
 * combinations in order and report which one worked.
 */
import sqlParser from 'node-sql-parser';
import { significantTokens, unquote, type Token } from './tokenize.js';

/** How a query was finally parsed; `quoted-*` means table names were quoted first. */
export type ParseMode = 'sqlite' | 'mysql' | 'quoted-sqlite' | 'quoted-mysql';

export type ParseResult = { ok: true; ast: unknown; mode: ParseMode } | { ok: false; error: string };

export interface ColumnRef {
  /** Table name or alias as written, when the parser or the query names one. */
  table: string | null;
  column: string;
}

interface FullParse {
  ast: unknown;
  mode: ParseMode;
  tableList: string[];
  columnList: string[];
}

const parser = new sqlParser.Parser();

// Parsing a query is far slower than a lookup, and callers ask for the AST, tables and
// columns of the same query in turn; a small bounded cache avoids parsing it thrice.
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

/** Column references in the query; `*` and aggregate-only references are not listed. */
export function columnsOf(sql: string): ColumnRef[] {
  const r = fullParse(sql);
  if (!('error' in r)) {
    const seen = new Set<string>();
    const out: ColumnRef[] = [];
    for (const entry of r.columnList) {
      const [, table, ...rest] = entry.split('::');
      const column = rest.join('::');
      // node-sql-parser lists `*` as "(.*)"; that is not a column.
      if (!column || column === '(.*)' || column === '*') continue;
      const ref: ColumnRef = { table: table === undefined || table === 'null' ? null : table, column };
      const key = `${ref.table ?? ''}\u0000${ref.column}`;
      if (!seen.has(key)) {
        seen.add(key);
        out.push(ref);
      }
    }
    return out;
  }
  return tokenColumns(sql);
}

function fullParse(sql: string): FullParse | { error: string } {
  const hit = cache.get(sql);
  if (hit) return hit;
  const result = tryModes(sql);
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(sql, result);
  return result;
}

function tryModes(sql: string): FullParse | { error: string } {
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
      const r = parser.parse(text, { database });
      const ast = Array.isArray(r.ast) ? (r.ast.length === 1 ? r.ast[0] : r.ast) : r.ast;
      return { ast, mode, tableList: r.tableList, columnList: r.columnList };
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
function forEachTableToken(toks: Token[], f: (t: Token, index: number) => void): void {
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
      if (lower !== 'select') f(t, i);
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

const KEYWORDS = new Set(
  (
    'select distinct all from where group by having order asc desc limit offset union intersect except join inner left ' +
    'right full outer cross natural on using as and or not in is null like glob between exists case when then else end ' +
    'cast collate escape with recursive true false over partition window rows range preceding following unbounded current row'
  ).split(' '),
);

/** Best-effort column references from tokens: `a.b` pairs, then bare non-keyword words. */
function tokenColumns(sql: string): ColumnRef[] {
  const toks = significantTokens(sql);
  const tableish = new Set<number>();
  forEachTableToken(toks, (_t, i) => {
    tableish.add(i);
    // An alias after the table name (with or without AS) is not a column either.
    const next = toks[i + 1];
    if (next?.text.toLowerCase() === 'as') tableish.add(i + 2);
    else if (next?.kind === 'word' && !KEYWORDS.has(next.text.toLowerCase())) tableish.add(i + 1);
  });
  const out: ColumnRef[] = [];
  const seen = new Set<string>();
  const add = (table: string | null, column: string): void => {
    const key = `${table ?? ''}\u0000${column}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push({ table, column });
    }
  };
  const isName = (t: Token | undefined): t is Token => t !== undefined && (t.kind === 'word' || t.kind === 'quotedIdent' || t.kind === 'dquoted');
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!;
    if (tableish.has(i) || !isName(t)) continue;
    if (toks[i + 1]?.text === '.' && isName(toks[i + 2])) {
      add(unquote(t), unquote(toks[i + 2]!));
      i += 2;
      continue;
    }
    // Double-quoted text is usually a string literal in these benchmarks.
    if (t.kind === 'dquoted' || KEYWORDS.has(t.text.toLowerCase()) || toks[i + 1]?.text === '(') continue;
    if (toks[i - 1]?.text.toLowerCase() === 'as') continue;
    add(null, unquote(t));
  }
  return out;
}

function unique(xs: string[]): string[] {
  return [...new Set(xs)];
}
