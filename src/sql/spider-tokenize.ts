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
import { PY_SPACE_CLASS, pyTrailingSpaceStart } from './python-text.js';

export class SpiderTokenizeError extends Error {}

// nltk word_tokenize's rules in order (NLTKWordTokenizer, nltk 3.8). Python's \d and \s are
// Unicode-aware; quotes never reach it here (step 2 removes them) but their rules are kept.
// Every rule is linear in the text: the two anchored at the end are index scans (finalPeriod).
type Rule = [RegExp, string] | ((t: string) => string);
const STARTING_QUOTES: [RegExp, string][] = [
  [/([«“‘„]|`+)/gu, ' $1 '],
  [/^"/gu, '``'],
  [/(``)/gu, ' $1 '],
  [/([ ([{<])("|'{2})/gu, '$1 `` '],
  [/(')(?!re|ve|ll|m|t|s|d|n)(\w)\b/giu, '$1 $2'],
];
const PUNCTUATION: Rule[] = [
  // ([^\.])(\.)([\]\)}>"\'»”’ ]*)\s*$ → \1 \2 \3
  (t) => finalPeriod(t, `])}>"'»”’ `, ' '),
  [/([:,])([^\p{Nd}])/gu, ' $1 $2'],
  [/([:,])$/gu, ' $1 '],
  [/\.{2,}/gu, ' $& '],
  [/[;@#$%&]/gu, ' $& '],
  // ([^\.])(\.)([\]\)}>"\']*)\s*$ → \1 \2\3
  (t) => finalPeriod(t, `])}>"'`, ''),
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
const SPLIT = new RegExp(`[${PY_SPACE_CLASS}]+`, 'u');

/**
 * nltk's `([^\.])(\.)([CLOSERS]*)\s*$` rule (sub, replacement `\1 \2<gap>\3 `) without its regex,
 * which backtracks across a whitespace run once per position (quadratic). It matches only where the
 * text ends in a period, then closers, then whitespace: strip the final whitespace, then the closers
 * before it; the character left must be a `.` not preceded by another `.` (nor by nothing).
 * The closers group is greedy, so it takes the spaces (when it may) that begin the final whitespace.
 */
export function finalPeriod(t: string, closers: string, gap: string): string {
  const spaceFrom = pyTrailingSpaceStart(t);
  let q = spaceFrom;
  while (q > 0 && closers.includes(t[q - 1]!)) q--;
  if (q < 2 || t[q - 1] !== '.' || t[q - 2] === '.') return t;
  let groupEnd = spaceFrom;
  while (groupEnd < t.length && closers.includes(t[groupEnd]!)) groupEnd++;
  return `${t.slice(0, q - 1)} .${gap}${t.slice(q, groupEnd)} `;
}

const applyRule = (t: string, rule: Rule): string => (typeof rule === 'function' ? rule(t) : t.replace(rule[0], rule[1]));

/** nltk's `word_tokenize` on one sentence. */
export function treebankWords(text: string): string[] {
  let t = text;
  for (const [re, sub] of STARTING_QUOTES) t = t.replace(re, sub);
  for (const rule of PUNCTUATION) t = applyRule(t, rule);
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
  // Each quoted span (pairs in order) becomes `__val_<open>_<close>__`: the official code edits the
  // string once per pair from the last; built in one pass here (the same text, linear).
  const vals = new Map<string, string>();
  const parts: string[] = [];
  let from = 0;
  for (let i = 0; i < quotes.length; i += 2) {
    const q1 = quotes[i]!;
    const q2 = quotes[i + 1]!;
    const key = `__val_${q1}_${q2}__`;
    vals.set(key, s.slice(q1, q2 + 1));
    parts.push(s.slice(from, q1), key);
    from = q2 + 1;
  }
  parts.push(s.slice(from));
  s = parts.join('');
  const toks = treebankWords(s).map((w) => {
    const low = w.toLowerCase();
    return vals.get(low) ?? low;
  });
  return mergeComparisons(toks);
}

const isPrefix = (t: string): boolean => t === '!' || t === '>' || t === '<';

/**
 * The official `=` merge: for each `=` from the last, `toks = toks[:i-1] + [pre + '='] + toks[i+1:]`
 * when the token before it is `!`, `>` or `<`. A merge never moves an earlier token, and the token
 * before an `=` is never itself a merged one, so every merge at i ≥ 1 is decided on the original
 * tokens and applied in one pass (the official list rebuilding is quadratic). An `=` first of all,
 * merged last, reads `toks[-1]` and is reproduced as written.
 */
function mergeComparisons(toks: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < toks.length; i++) {
    const next = toks[i + 1];
    if (next === '=' && isPrefix(toks[i]!)) {
      out.push(toks[i]! + '=');
      i++;
    } else out.push(toks[i]!);
  }
  if (toks[0] !== '=') return out;
  const pre = pyIndex(out, -1);
  return isPrefix(pre) ? [...pySlice(out, 0, -1), pre + '=', ...pySlice(out, 1)] : out;
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
