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
/** A number's text, matched where it starts (sticky: no copy of the rest of the input). */
const NUMBER = /0[xX][0-9a-fA-F]+|([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?/y;

// The lexer runs on every query sqlboard executes and on every gold it grades, so it reads
// character codes instead of testing one-character strings against regular expressions.

/** JavaScript's `\s`: ASCII whitespace, NBSP, BOM, the Unicode space separators and line separators. */
export function isSpaceCode(c: number): boolean {
  if (c < 0xa0) return c === 32 || (c >= 9 && c <= 13);
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isAsciiLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
/** `[A-Za-z_\u0080-\uffff]`: what a word starts with. */
const isWordStart = (c: number): boolean => isAsciiLetter(c) || c === 95 || c >= 0x80;
/** `[A-Za-z0-9_$\u0080-\uffff]`: what a word goes on with. */
const isWordPart = (c: number): boolean => isWordStart(c) || isDigit(c) || c === 36;
/** `[A-Za-z0-9_]`: a parameter's name. */
const isParamPart = (c: number): boolean => isAsciiLetter(c) || isDigit(c) || c === 95;

export function tokenize(sql: string): Token[] {
  return lex(sql, true);
}

/** Tokens that carry meaning (no whitespace, no comments). */
export function significantTokens(sql: string): Token[] {
  return lex(sql, false);
}

function lex(sql: string, trivia: boolean): Token[] {
  const out: Token[] = [];
  const n = sql.length;
  let i = 0;
  const push = (kind: TokenKind, end: number): void => {
    if (trivia || (kind !== 'space' && kind !== 'comment')) out.push({ kind, text: sql.slice(i, end), start: i });
    i = end;
  };
  while (i < n) {
    const c = sql.charCodeAt(i);
    const next = i + 1 < n ? sql.charCodeAt(i + 1) : -1;
    if (isSpaceCode(c)) {
      let j = i + 1;
      while (j < n && isSpaceCode(sql.charCodeAt(j))) j++;
      push('space', j);
    } else if (c === 45 /* - */ && next === 45) {
      let j = sql.indexOf('\n', i);
      if (j < 0) j = n;
      push('comment', j);
    } else if (c === 47 /* / */ && next === 42 /* * */) {
      const j = sql.indexOf('*/', i + 2);
      push('comment', j < 0 ? n : j + 2);
    } else if (c === 39 /* ' */ || c === 34 /* " */ || c === 96 /* ` */) {
      // Quotes escape by doubling; an unterminated quote runs to the end.
      let j = i + 1;
      for (;;) {
        if (j >= n) break;
        if (sql.charCodeAt(j) === c) {
          if (j + 1 < n && sql.charCodeAt(j + 1) === c) {
            j += 2;
            continue;
          }
          j++;
          break;
        }
        j++;
      }
      push(c === 39 ? 'string' : c === 34 ? 'dquoted' : 'quotedIdent', Math.min(j, n));
    } else if (c === 91 /* [ */) {
      const j = sql.indexOf(']', i + 1);
      push('quotedIdent', j < 0 ? n : j + 1);
    } else if (isDigit(c) || (c === 46 /* . */ && isDigit(next))) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(sql);
      push('number', i + (m ? m[0].length : 1));
    } else if (isWordStart(c)) {
      let j = i + 1;
      while (j < n && isWordPart(sql.charCodeAt(j))) j++;
      push('word', j);
    } else if (c === 63 /* ? */ || c === 58 /* : */ || c === 64 /* @ */ || c === 36 /* $ */) {
      let j = i + 1;
      while (j < n && isParamPart(sql.charCodeAt(j))) j++;
      push('param', j);
    } else {
      push('op', i + (TWO_CHAR_OPS.has(sql.slice(i, i + 2)) ? 2 : 1));
    }
  }
  return out;
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
