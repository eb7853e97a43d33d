import { significantTokens, unquote, type Token } from '../sql/tokenize.js';
import { statementText } from './sql-text.js';

/**
 * Set operations over names: `SELECT T2.name … INTERSECT SELECT T2.name …` answers "which
 * students both …" by comparing names, so two students who share a name merge (one has
 * friends, the other is liked: the name passes, no student does). The probe runs the same
 * set operation on the rows' identities (rowid) and lists those rows' names; when that set
 * differs from the gold's, the gold's answer is provably not about entities. Only name-like
 * columns are probed: for an attribute (`SELECT country … INTERSECT …`) values are the answer.
 */
export function setOpProbe(gold: string): string | undefined {
  const text = statementText(gold);
  const toks = significantTokens(text);
  let depth = 0;
  let opAt = -1;
  for (let i = 0; i < toks.length; i++) {
    const w = toks[i]!.text.toLowerCase();
    if (w === '(') depth++;
    else if (w === ')') depth--;
    else if (depth === 0 && (w === 'intersect' || w === 'except' || w === 'union')) {
      if (opAt >= 0 || w === 'union') return undefined;
      opAt = i;
    } else if (depth === 0 && (w === 'order' || w === 'limit')) return undefined;
  }
  if (opAt < 0) return undefined;
  const a = arm(text, toks.slice(0, opAt));
  const b = arm(text, toks.slice(opAt + 1));
  if (!a || !b || a.table !== b.table || a.columns.join() !== b.columns.join()) return undefined;
  if (!a.columns.some((c) => /name|title/i.test(c))) return undefined;
  const op = toks[opAt]!.text.toUpperCase();
  return `SELECT ${a.columns.join(', ')} FROM ${a.tableText} WHERE rowid IN (SELECT ${a.qualifier}.rowid ${a.rest} ${op} SELECT ${b.qualifier}.rowid ${b.rest})`;
}

interface Arm {
  table: string;
  tableText: string;
  qualifier: string;
  columns: string[];
  /** The arm from its FROM on, as written. */
  rest: string;
}

/** `SELECT [DISTINCT] ref[, ref…] FROM …` where every ref is a column of one table of the FROM clause. */
function arm(text: string, toks: Token[]): Arm | undefined {
  const low = toks.map((t) => t.text.toLowerCase());
  if (low[0] !== 'select') return undefined;
  let i = low[1] === 'distinct' ? 2 : 1;
  const fromAt = low.indexOf('from');
  if (fromAt < 0) return undefined;
  const refs: { qual: string | null; col: string }[] = [];
  while (i < fromAt) {
    const isName = (t: Token | undefined): boolean => t !== undefined && (t.kind === 'word' || t.kind === 'quotedIdent');
    if (isName(toks[i]) && toks[i + 1]?.text === '.' && isName(toks[i + 2])) {
      refs.push({ qual: unquote(toks[i]!).toLowerCase(), col: unquote(toks[i + 2]!) });
      i += 3;
    } else if (isName(toks[i])) {
      refs.push({ qual: null, col: unquote(toks[i]!) });
      i += 1;
    } else return undefined;
    if (i < fromAt) {
      if (toks[i]!.text !== ',') return undefined;
      i++;
    }
  }
  if (refs.length === 0 || new Set(refs.map((r) => r.qual)).size !== 1) return undefined;
  // Tables of the FROM clause with their aliases: FROM t [AS] x JOIN u [AS] y ON …
  const tables: { name: string; alias: string | null }[] = [];
  for (let k = fromAt; k < toks.length; k++) {
    if (low[k] !== 'from' && low[k] !== 'join') continue;
    const t = toks[k + 1];
    if (!t || (t.kind !== 'word' && t.kind !== 'quotedIdent')) return undefined;
    let alias: string | null = null;
    if (low[k + 2] === 'as' && toks[k + 3]) alias = unquote(toks[k + 3]!).toLowerCase();
    else if (toks[k + 2]?.kind === 'word' && !KEYWORDS.has(low[k + 2]!)) alias = low[k + 2]!;
    tables.push({ name: unquote(t), alias });
  }
  const qual = refs[0]!.qual;
  const match = qual === null ? (tables.length === 1 ? tables[0] : undefined) : tables.find((t) => t.alias === qual || (t.alias === null && t.name.toLowerCase() === qual));
  if (!match) return undefined;
  const last = toks[toks.length - 1]!;
  return {
    table: match.name.toLowerCase(),
    tableText: match.name,
    qualifier: match.alias ?? match.name,
    columns: refs.map((r) => r.col),
    rest: text.slice(toks[fromAt]!.start, last.start + last.text.length),
  };
}

const KEYWORDS = new Set(['where', 'join', 'on', 'group', 'order', 'limit', 'having', 'inner', 'left', 'right', 'cross', 'natural', 'outer', 'intersect', 'except', 'union']);
