/**
 * A lossless SQLite lexer: joining the tokens' `text` gives back the input exactly.
 * Used where a full parse is unnecessary or may fail (DQS literals, DISTINCT removal,
 * hardness rules, token-level fallbacks).
 */
export type TokenKind =
  | 'space'
  | 'comment'
  | 'string' // '...'
  | 'dquoted' // "..." (identifier or, in standard SQLite builds, a string literal)
  | 'quotedIdent' // `...` or [...]
  | 'number'
  | 'word'
  | 'param'
  | 'op';

export interface Token {
  kind: TokenKind;
  text: string;
  /** Offset of the token in the input. */
  start: number;
}

const TWO_CHAR_OPS = new Set(['<=', '>=', '<>', '!=', '==', '||', '<<', '>>', '->']);

export function tokenize(sql: string): Token[] {
  const out: Token[] = [];
  const n = sql.length;
  let i = 0;
  const push = (kind: TokenKind, end: number): void => {
    out.push({ kind, text: sql.slice(i, end), start: i });
    i = end;
  };
  while (i < n) {
    const c = sql[i]!;
    if (/\s/.test(c)) {
      let j = i + 1;
      while (j < n && /\s/.test(sql[j]!)) j++;
      push('space', j);
    } else if (c === '-' && sql[i + 1] === '-') {
      let j = sql.indexOf('\n', i);
      if (j < 0) j = n;
      push('comment', j);
    } else if (c === '/' && sql[i + 1] === '*') {
      const j = sql.indexOf('*/', i + 2);
      push('comment', j < 0 ? n : j + 2);
    } else if (c === "'" || c === '"' || c === '`') {
      // Quotes escape by doubling; an unterminated quote runs to the end.
      let j = i + 1;
      for (;;) {
        if (j >= n) break;
        if (sql[j] === c) {
          if (sql[j + 1] === c) {
            j += 2;
            continue;
          }
          j++;
          break;
        }
        j++;
      }
      push(c === "'" ? 'string' : c === '"' ? 'dquoted' : 'quotedIdent', Math.min(j, n));
    } else if (c === '[') {
      const j = sql.indexOf(']', i + 1);
      push('quotedIdent', j < 0 ? n : j + 1);
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(sql[i + 1] ?? ''))) {
      const m = /^(0[xX][0-9a-fA-F]+|([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?)/.exec(sql.slice(i));
      push('number', i + (m ? m[0].length : 1));
    } else if (/[A-Za-z_\u0080-\uffff]/.test(c)) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_$\u0080-\uffff]/.test(sql[j]!)) j++;
      push('word', j);
    } else if (c === '?' || c === ':' || c === '@' || c === '$') {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_]/.test(sql[j]!)) j++;
      push('param', j);
    } else {
      const two = sql.slice(i, i + 2);
      push('op', i + (TWO_CHAR_OPS.has(two) ? 2 : 1));
    }
  }
  return out;
}

/** Tokens that carry meaning (no whitespace, no comments). */
export function significantTokens(sql: string): Token[] {
  return tokenize(sql).filter((t) => t.kind !== 'space' && t.kind !== 'comment');
}

/** The unquoted content of a quoted token ('it''s' → it's). */
export function unquote(token: Token): string {
  const t = token.text;
  if (token.kind === 'string' || token.kind === 'dquoted' || (token.kind === 'quotedIdent' && t[0] === '`')) {
    const q = t[0]!;
    const body = t.endsWith(q) && t.length >= 2 ? t.slice(1, -1) : t.slice(1);
    return body.split(q + q).join(q);
  }
  if (token.kind === 'quotedIdent' && t[0] === '[') return t.slice(1, t.endsWith(']') ? -1 : undefined);
  return t;
}

/** A single-quoted SQL string literal for `value`. */
export function sqlStringLiteral(value: string): string {
  return `'${value.split("'").join("''")}'`;
}
