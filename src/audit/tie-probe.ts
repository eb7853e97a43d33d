import { significantTokens } from '../sql/tokenize.js';
import { statementText } from './sql-text.js';
import type { Cell, ExecResult } from '../execution/types.js';

/**
 * Ties at a LIMIT boundary: `ORDER BY x DESC LIMIT 1` answers "the highest" with one
 * arbitrary row when several share the top value — a well-known kind of wrong gold.
 * The probe re-runs the gold with the ORDER BY expression appended to its SELECT list
 * and LIMIT N+1; a tie is proven when rows N and N+1 carry the same value.
 */
export interface TieProbe {
  sql: string;
  limit: number;
  /** How many ORDER BY keys were appended (the last columns of the probe's rows). */
  keys: number;
}

export function tieProbe(gold: string): TieProbe | undefined {
  const text = statementText(gold);
  const toks = significantTokens(text);
  const low = toks.map((t) => t.text.toLowerCase());
  let depth = 0;
  let selectEnd = -1; // index of top-level FROM
  let orderAt = -1;
  let limitAt = -1;
  for (let i = 0; i < toks.length; i++) {
    const w = low[i]!;
    if (w === '(') depth++;
    else if (w === ')') depth--;
    if (depth !== 0) continue;
    if (w === 'from' && selectEnd < 0) selectEnd = i;
    else if (w === 'union' || w === 'intersect' || w === 'except') return undefined;
    else if (w === 'order' && low[i + 1] === 'by') orderAt = i;
    else if (w === 'limit') limitAt = i;
    else if (w === 'offset' || (w === ',' && limitAt >= 0)) return undefined;
  }
  if (selectEnd < 0 || orderAt < 0 || limitAt < orderAt || limitAt !== toks.length - 2) return undefined;
  const n = toks[limitAt + 1]!;
  if (n.kind !== 'number' || !/^\d+$/.test(n.text)) return undefined;
  const limit = Number(n.text);
  // ORDER BY with several keys: compare them all; each key is cut from the original text without its ASC/DESC.
  const keys: string[] = [];
  let group: typeof toks = [];
  let kd = 0;
  const flush = (): void => {
    while (group.length && /^(asc|desc)$/i.test(group[group.length - 1]!.text)) group.pop();
    if (group.length) keys.push(text.slice(group[0]!.start, group[group.length - 1]!.start + group[group.length - 1]!.text.length));
    group = [];
  };
  for (const t of toks.slice(orderAt + 2, limitAt)) {
    if (t.text === '(') kd++;
    else if (t.text === ')') kd--;
    if (t.text === ',' && kd === 0) flush();
    else group.push(t);
  }
  flush();
  if (keys.length === 0 || limit < 1) return undefined;
  const from = toks[selectEnd]!.start;
  const limitStart = toks[limitAt]!.start;
  const sql = `${text.slice(0, from).trimEnd()}, ${keys.join(', ')} ${text.slice(from, limitStart)}LIMIT ${limit + 1}`;
  return { sql, limit, keys: keys.length };
}

/** True when the probe shows a tie across the LIMIT boundary; undefined when it cannot tell. */
export function tieFromProbe(probe: TieProbe, r: ExecResult | undefined): boolean | undefined {
  if (!r || r.status !== 'ok') return undefined;
  if (r.rows.length <= probe.limit) return false;
  const a = r.rows[probe.limit - 1]!;
  const b = r.rows[probe.limit]!;
  const k = probe.keys;
  const same = (x: Cell | undefined, y: Cell | undefined): boolean => (x === null || y === null ? x === y : String(x) === String(y));
  for (let c = a.length - k; c < a.length; c++) if (!same(a[c], b[c])) return false;
  return true;
}
