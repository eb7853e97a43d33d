import { significantTokens, unquote, type Token } from '../sql/tokenize.js';
import type { ExecResult } from '../execution/types.js';
import { statementText } from './sql-text.js';

/**
 * Values the data spells differently: gold SQL that compares a column with a string literal
 * by `=` finds nothing when the stored value differs in case or carries spaces (Spider's
 * flight_2 stores "Aberdeen " with a trailing space). The probe re-runs the gold with every
 * such comparison relaxed to `TRIM(col) LIKE 'value'` (case-insensitive); when the gold's
 * answer is blank and the probe's is not, the gold missed rows the question is about.
 * With `trim: false` only case is relaxed: a hit then means the gold's literal itself is
 * mis-cased ('north america'), the gold's fault rather than the data's.
 */
export function valueProbe(gold: string, opts: { trim?: boolean } = {}): string | undefined {
  const trim = opts.trim ?? true;
  const text = statementText(gold);
  const toks = significantTokens(text);
  const edits: { start: number; end: number; text: string }[] = [];
  for (let i = 1; i + 1 < toks.length; i++) {
    const op = toks[i]!;
    const lit = toks[i + 1]!;
    if (op.text !== '=' || (lit.kind !== 'string' && lit.kind !== 'dquoted')) continue;
    const lhs = columnBefore(toks, i);
    if (!lhs) continue;
    const value = unquote(lit).trim().replace(/'/g, "''").replace(/[%_\\]/g, (c) => `\\${c}`);
    edits.push({ start: lhs.start, end: lit.start + lit.text.length, text: `${trim ? `TRIM(${text.slice(lhs.start, lhs.end)})` : text.slice(lhs.start, lhs.end)} LIKE '${value}' ESCAPE '\\'` });
  }
  if (edits.length === 0) return undefined;
  let out = text;
  for (const e of edits.reverse()) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/** The column reference right before `=` at index i: `col`, `T1.col` (quoted parts allowed). */
function columnBefore(toks: Token[], i: number): { start: number; end: number } | undefined {
  const isName = (t: Token | undefined): boolean => t !== undefined && (t.kind === 'word' || t.kind === 'quotedIdent' || t.kind === 'dquoted');
  const last = toks[i - 1];
  if (!isName(last)) return undefined;
  let first = last!;
  if (toks[i - 2]?.text === '.' && isName(toks[i - 3])) first = toks[i - 3]!;
  return { start: first.start, end: last!.start + last!.text.length };
}

/** Nothing, only NULLs, or a single zero: an answer that found no matching rows. */
export function isBlank(r: ExecResult | undefined): boolean {
  if (!r || r.status !== 'ok') return false;
  if (r.rows.length === 0) return true;
  const cells = r.rows.flat();
  if (cells.every((c) => c === null)) return true;
  return r.rows.length === 1 && r.rows[0]!.length === 1 && (r.rows[0]![0] === 0 || r.rows[0]![0] === 0n);
}
