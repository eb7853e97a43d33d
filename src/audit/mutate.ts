import { tokenize, type Token } from '../sql/tokenize.js';

/**
 * Single-edit mutations of a gold query, the kinds of mistakes found in published gold SQL:
 * the injected-error benchmark (inject.ts) plants them to measure the audit without labels.
 * Each function lists every place its edit applies; the caller draws among them and keeps a
 * mutation only when it runs and answers differently.
 */
export const MUTATION_KINDS = ['column', 'operator', 'literal', 'conjunct', 'aggregation', 'order', 'limit', 'join', 'distinct'] as const;
export type MutationKind = (typeof MUTATION_KINDS)[number];

const up = (t: Token | undefined): string => (t && t.kind === 'word' ? t.text.toUpperCase() : '');

/** Significant-token view of a query with each token's paren depth; edits rebuild the text from the lossless tokens. */
interface View {
  all: Token[];
  /** Indices into `all` of the significant tokens. */
  sig: number[];
  depth: number[];
}

function view(sql: string): View {
  const all = tokenize(sql);
  const sig: number[] = [];
  const depth: number[] = [];
  let d = 0;
  all.forEach((t, i) => {
    if (t.kind === 'space' || t.kind === 'comment') return;
    if (t.text === ')') d--;
    sig.push(i);
    depth.push(d);
    if (t.text === '(') d++;
  });
  return { all, sig, depth };
}

/** The query with significant tokens [from, to) replaced by `text`. */
function splice(v: View, from: number, to: number, text: string): string {
  const a = v.sig[from]!;
  const b = to > from ? v.sig[to - 1]! + 1 : a;
  return v.all.slice(0, a).map((t) => t.text).join('') + text + v.all.slice(b).map((t) => t.text).join('');
}

const tok = (v: View, k: number): Token | undefined => (k >= 0 && k < v.sig.length ? v.all[v.sig[k]!] : undefined);

const FLIP: Record<string, string> = { '>': '<', '<': '>', '>=': '<', '<=': '>', '=': '!=', '!=': '=', '<>': '=' };
const AGG_SWAP: Record<string, string> = { MAX: 'MIN', MIN: 'MAX', AVG: 'SUM', SUM: 'AVG' };
const CLAUSE_END = new Set(['AND', 'OR', 'GROUP', 'ORDER', 'LIMIT', 'HAVING', 'UNION', 'INTERSECT', 'EXCEPT']);

/**
 * Every mutation of one kind; `columns` are the database's column names (for a column swap).
 * Results are distinct texts, in the order their edit sites appear.
 */
export function mutations(sql: string, kind: MutationKind, columns: readonly string[] = []): string[] {
  const v = view(sql);
  const n = v.sig.length;
  const out = new Set<string>();
  for (let k = 0; k < n; k++) {
    const t = tok(v, k)!;
    const u = up(t);
    switch (kind) {
      case 'column': {
        // A column reference: a known column name that is neither a call nor an alias.
        if (t.kind !== 'word' || up(tok(v, k - 1)) === 'AS' || tok(v, k + 1)?.text === '(') break;
        const lower = t.text.toLowerCase();
        if (!columns.some((c) => c.toLowerCase() === lower)) break;
        for (const c of columns) if (c.toLowerCase() !== lower) out.add(splice(v, k, k + 1, /^[A-Za-z_]\w*$/.test(c) ? c : `"${c}"`));
        break;
      }
      case 'operator': {
        // Comparisons with a literal only: flipping a join condition is not a plausible slip.
        const next = tok(v, k + 1);
        if (t.kind === 'op' && FLIP[t.text] && next && (next.kind === 'number' || next.kind === 'string' || next.kind === 'dquoted')) out.add(splice(v, k, k + 1, FLIP[t.text]!));
        break;
      }
      case 'literal': {
        if (t.kind !== 'number' || up(tok(v, k - 1)) === 'LIMIT' || up(tok(v, k - 1)) === 'OFFSET') break;
        const x = Number(t.text);
        if (!Number.isFinite(x)) break;
        out.add(splice(v, k, k + 1, Number.isInteger(x) ? String(x + 1) : String(Number((x * 1.1).toPrecision(6)))));
        break;
      }
      case 'conjunct': {
        // `AND cond` dropped, up to the next connective or clause at the same depth (not BETWEEN's AND).
        if (u !== 'AND' || between(v, k)) break;
        let e = k + 1;
        while (e < n && !(v.depth[e]! === v.depth[k]! && CLAUSE_END.has(up(tok(v, e))) && !(up(tok(v, e)) === 'AND' && between(v, e))) && v.depth[e]! >= v.depth[k]!) e++;
        if (e > k + 1) out.add(splice(v, k, e, ''));
        break;
      }
      case 'aggregation': {
        if (tok(v, k + 1)?.text !== '(') break;
        if (AGG_SWAP[u]) out.add(splice(v, k, k + 1, AGG_SWAP[u]!));
        if (u === 'COUNT') {
          if (up(tok(v, k + 2)) === 'DISTINCT') out.add(splice(v, k + 2, k + 3, ''));
          else if (tok(v, k + 2)?.text !== '*') out.add(splice(v, k + 2, k + 2, 'DISTINCT '));
        }
        break;
      }
      case 'order': {
        if (u !== 'ORDER' || up(tok(v, k + 1)) !== 'BY') break;
        // The first sort key's direction: flip ASC/DESC, or add DESC to a key without one.
        let e = k + 2;
        while (e < n && v.depth[e]! >= v.depth[k]! && !(v.depth[e] === v.depth[k] && (tok(v, e)!.text === ',' || CLAUSE_END.has(up(tok(v, e)))))) {
          const w = up(tok(v, e));
          if (w === 'ASC' || w === 'DESC') break;
          e++;
        }
        const w = up(tok(v, e));
        if (w === 'ASC') out.add(splice(v, e, e + 1, 'DESC'));
        else if (w === 'DESC') out.add(splice(v, e, e + 1, 'ASC'));
        else out.add(splice(v, e - 1, e, tok(v, e - 1)!.text + ' DESC'));
        break;
      }
      case 'limit': {
        const next = tok(v, k + 1);
        if (u !== 'LIMIT' || next?.kind !== 'number') break;
        const x = Number(next.text);
        out.add(splice(v, k + 1, k + 2, String(x + 1)));
        if (x > 1) out.add(splice(v, k + 1, k + 2, String(x - 1)));
        break;
      }
      case 'join': {
        const prev = up(tok(v, k - 1));
        if (u === 'JOIN' && !['LEFT', 'OUTER', 'CROSS', 'NATURAL', 'RIGHT', 'FULL', 'INNER'].includes(prev)) out.add(splice(v, k, k + 1, 'LEFT JOIN'));
        break;
      }
      case 'distinct': {
        if (u !== 'SELECT') break;
        if (up(tok(v, k + 1)) === 'DISTINCT') out.add(splice(v, k + 1, k + 2, ''));
        else out.add(splice(v, k, k + 1, t.text + ' DISTINCT'));
        break;
      }
    }
  }
  out.delete(sql);
  return [...out];
}

/** The AND at significant index k belongs to a BETWEEN (… BETWEEN x AND y) at its depth. */
function between(v: View, k: number): boolean {
  for (let j = k - 1; j >= 0 && j >= k - 4; j--) {
    if (v.depth[j] !== v.depth[k]) continue;
    const w = up(tok(v, j));
    if (w === 'BETWEEN') return true;
    if (w === 'AND' || w === 'OR' || w === 'WHERE') return false;
  }
  return false;
}
