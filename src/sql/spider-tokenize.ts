/**
 * The tokens Spider's official parser (`process_sql.tokenize` in taoyds/spider and
 * taoyds/test-suite-sql-eval) reads, written from its documented behaviour:
 *  1. every `'` becomes `"`; an odd number of quotes is an error;
 *  2. each quoted span (pairs of quotes taken in order) is set aside under a placeholder;
 *  3. the text is split by nltk's `word_tokenize` (Treebank-style regular expressions, below),
 *     the tokens lower-cased and the placeholders given back their quoted text (case kept);
 *  4. a `=` after `!`, `>` or `<` is merged with it (`>=`); `<>` stays two tokens.
 * nltk's sentence splitter runs before its word tokenizer; SQL rarely has a sentence end
 * (a period, ? or ! followed by space and more text), and the official fixtures show no parse
 * outcome depends on it, so the text is treated as one sentence.
 */
export class SpiderTokenizeError extends Error {}

// nltk word_tokenize's rules in order (NLTKWordTokenizer, nltk 3.8). Python's \d and \s are
// Unicode-aware; quotes never reach it here (step 2 removes them) but their rules are kept.
const PY_SPACE = '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const STARTING_QUOTES: [RegExp, string][] = [
  [/([«“‘„]|`+)/gu, ' $1 '],
  [/^"/gu, '``'],
  [/(``)/gu, ' $1 '],
  [/([ ([{<])("|'{2})/gu, '$1 `` '],
  [/(')(?!re|ve|ll|m|t|s|d|n)(\w)\b/giu, '$1 $2'],
];
const PUNCTUATION: [RegExp, string][] = [
  [new RegExp(`([^.])(\\.)([\\])}>"'»”’ ]*)[${PY_SPACE}]*$`, 'gu'), '$1 $2 $3 '],
  [/([:,])([^\p{Nd}])/gu, ' $1 $2'],
  [/([:,])$/gu, ' $1 '],
  [/\.{2,}/gu, ' $& '],
  [/[;@#$%&]/gu, ' $& '],
  [new RegExp(`([^.])(\\.)([\\])}>"']*)[${PY_SPACE}]*$`, 'gu'), '$1 $2$3 '],
  [/[?!]/gu, ' $& '],
  [/([^'])' /gu, "$1 ' "],
  [/[*]/gu, ' $& '],
];
const PARENS_BRACKETS: [RegExp, string] = [/[\][(){}<>]/gu, ' $& '];
const DOUBLE_DASHES: [RegExp, string] = [/--/gu, ' -- '];
const ENDING_QUOTES: [RegExp, string][] = [
  [/([»”’])/gu, ' $1 '],
  [/''/gu, " '' "],
  [/"/gu, " '' "],
  [/([^' ])('[sS]|'[mM]|'[dD]|') /gu, '$1 $2 '],
  [/([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) /gu, '$1 $2 '],
];
const CONTRACTIONS: RegExp[] = [
  /\b(can)(not)\b/gi,
  /\b(d)('ye)\b/gi,
  /\b(gim)(me)\b/gi,
  /\b(gon)(na)\b/gi,
  /\b(got)(ta)\b/gi,
  /\b(lem)(me)\b/gi,
  /\b(more)('n)\b/gi,
  /\b(wan)(na)(?=\s)/gi,
  / ('t)(is)\b/gi,
  / ('t)(was)\b/gi,
];
const SPLIT = new RegExp(`[${PY_SPACE}]+`, 'u');

/** nltk's `word_tokenize` on one sentence. */
export function treebankWords(text: string): string[] {
  let t = text;
  for (const [re, sub] of STARTING_QUOTES) t = t.replace(re, sub);
  for (const [re, sub] of PUNCTUATION) t = t.replace(re, sub);
  t = t.replace(PARENS_BRACKETS[0], PARENS_BRACKETS[1]);
  t = t.replace(DOUBLE_DASHES[0], DOUBLE_DASHES[1]);
  t = ` ${t} `;
  for (const [re, sub] of ENDING_QUOTES) t = t.replace(re, sub);
  for (const re of CONTRACTIONS) t = t.replace(re, ' $1 $2 ');
  return t.split(SPLIT).filter((w) => w !== '');
}

/** `process_sql.tokenize`; throws SpiderTokenizeError where the official one fails (odd quotes). */
export function spiderTokens(sql: string): string[] {
  let s = sql.replace(/'/g, '"');
  const quotes: number[] = [];
  for (let i = 0; i < s.length; i++) if (s[i] === '"') quotes.push(i);
  if (quotes.length % 2 !== 0) throw new SpiderTokenizeError('Unexpected quote');
  const vals = new Map<string, string>();
  for (let i = quotes.length - 1; i >= 0; i -= 2) {
    const q1 = quotes[i - 1]!;
    const q2 = quotes[i]!;
    const key = `__val_${q1}_${q2}__`;
    vals.set(key, s.slice(q1, q2 + 1));
    s = s.slice(0, q1) + key + s.slice(q2 + 1);
  }
  let toks = treebankWords(s).map((w) => {
    const low = w.toLowerCase();
    return vals.get(low) ?? low;
  });
  const eqs: number[] = [];
  toks.forEach((t, i) => t === '=' && eqs.push(i));
  for (const eq of eqs.reverse()) {
    const pre = pyIndex(toks, eq - 1);
    if (pre === '!' || pre === '>' || pre === '<') {
      toks = [...pySlice(toks, 0, eq - 1), pre + '=', ...pySlice(toks, eq + 1)];
    }
  }
  return toks;
}

/** Python's `xs[i]`: negative indexes count from the end; out of range throws (IndexError). */
export function pyIndex<T>(xs: readonly T[], i: number): T {
  const k = i < 0 ? xs.length + i : i;
  if (k < 0 || k >= xs.length) throw new SpiderTokenizeError('list index out of range');
  return xs[k]!;
}

/** Python's `xs[a:b]`. */
export function pySlice<T>(xs: readonly T[], a: number, b?: number): T[] {
  const n = xs.length;
  const norm = (i: number): number => (i < 0 ? Math.max(0, n + i) : Math.min(i, n));
  return xs.slice(norm(a), b === undefined ? n : norm(b));
}
