import { significantTokens } from '../sql/tokenize.js';

/**
 * Repairs of prediction text. The official evaluators execute a prediction as given, so by
 * default sqlboard repairs nothing; each repair is opt-in (`--repair NAME`, or a bundled
 * system's manifest entry) and reported with the number of predictions it changed.
 */
export const REPAIR_NAMES = ['restore-select', 'keep-tabs'] as const;
export type RepairName = (typeof REPAIR_NAMES)[number];

/** What each repair does, for option help and notes. */
export const REPAIR_DESCRIPTIONS: Record<RepairName, string> = {
  'restore-select': 'prepend "SELECT " to a prediction that starts with neither a statement keyword, "(" nor a comment (generators prompted with a trailing SELECT)',
  'keep-tabs': 'Spider text: keep TABs inside the SQL (the official readers keep only the text before the first TAB)',
};

/** Predictions changed by each repair that was on (absent: the repair was off). */
export type RepairCounts = Partial<Record<RepairName, number>>;

// A statement keyword, a parenthesis or a comment at the start means the text is not a SELECT
// with its keyword left out, whatever else is wrong with it.
const STATEMENT_START =
  /^[\s]*(\(|--|\/\*|select\b|with\b|values\b|pragma\b|explain\b|insert\b|update\b|delete\b|replace\b|create\b|drop\b|alter\b|attach\b|detach\b|vacuum\b|reindex\b|analyze\b|begin\b|commit\b|end\b|rollback\b|savepoint\b|release\b)/i;

/** Whether `sql` looks like a SELECT whose leading keyword a generator left out. */
export function missingSelect(sql: string): boolean {
  // Most predictions start with SELECT: known without the regular expression (or copying the text to trim it).
  if (LEADING_SELECT.test(sql)) return false;
  return sql.trim() !== '' && !STATEMENT_START.test(sql);
}

/** The common case of STATEMENT_START, a short pattern anchored at the start. */
const LEADING_SELECT = /^[ \t\n\r]*select\b/i;

/** `sql` with "SELECT " in front when it is missing (see missingSelect). */
export function restoreSelect(sql: string): string {
  return missingSelect(sql) ? `SELECT ${sql.trimStart()}` : sql;
}

/**
 * What a prediction that is no statement starts with: nothing at all, a Markdown code fence, prose, or
 * what reads as a SELECT list without its keyword (`COUNT(*) FROM singer`). Undefined for text that
 * starts with a statement keyword, "(" or a comment. Only for the notes: every one of them runs as
 * given (and --repair restore-select prepends "SELECT " to all but the empty ones, as documented).
 */
export type OddStart = 'empty' | 'fence' | 'prose' | 'select-list';

export function oddStart(sql: string): OddStart | undefined {
  if (LEADING_SELECT.test(sql)) return undefined;
  const text = sql.trimStart();
  if (text === '') return 'empty';
  if (STATEMENT_START.test(text)) return undefined;
  if (text.startsWith('```') || text.startsWith('~~~')) return 'fence';
  return readsAsSelectList(text) ? 'select-list' : 'prose';
}

/** Words that may follow a SELECT list's first term (an alias, FROM, an operator spelled as a word). */
const AFTER_TERM = new Set(['as', 'from', 'collate', 'not', 'in', 'like', 'glob', 'regexp', 'match', 'between', 'and', 'or', 'escape', 'over', 'filter', 'limit', 'order', 'group', 'where']);
const TERM_KINDS = new Set(['word', 'dquoted', 'quotedIdent', 'number', 'string', 'param']);

/**
 * Whether text reads as a SELECT list: `*`, DISTINCT/ALL, or a first term (a name, literal, call,
 * `t.col`, a sign) followed by what can follow a term in SQL (`,`, `.`, `(`, an operator, AS, FROM,
 * the end) rather than by another word, as prose has ("sql placeholder", "Here is the query").
 */
function readsAsSelectList(text: string): boolean {
  const [first, second, third] = significantTokens(text.slice(0, 200));
  if (!first) return false;
  if (first.text === '*' || first.text === '-' || first.text === '+') return true;
  if (first.kind === 'word' && /^(distinct|all)$/i.test(first.text)) return true;
  if (!TERM_KINDS.has(first.kind)) return false;
  if (second === undefined) return true;
  if (second.kind === 'op') return second.text !== ':' && second.text !== '?' && second.text !== '!';
  if (second.kind !== 'word') return false;
  const word = second.text.toLowerCase();
  // `x IS NULL` / `x IS NOT ...`, not "Here is the query".
  if (word === 'is') return third !== undefined && (third.kind !== 'word' || /^(null|not|true|false)$/i.test(third.text));
  return AFTER_TERM.has(word);
}

const START_WORDS: Record<Exclude<OddStart, 'empty'>, string> = {
  fence: 'start with a Markdown code fence',
  prose: 'start with prose',
  'select-list': 'read as a SELECT list without its keyword (a "SELECT " left out?)',
};

/** The predictions of a file that are no statement, by what they start with, and one example of each. */
export class OddStarts {
  readonly count: Record<OddStart, number> = { empty: 0, fence: 0, prose: 0, 'select-list': 0 };
  readonly example: Partial<Record<OddStart, { taskId: string; sql: string }>> = {};

  add(kind: OddStart, p: { taskId: string; sql: string }): void {
    this.count[kind]++;
    this.example[kind] ??= { taskId: p.taskId, sql: p.sql };
  }

  /** The predictions --repair restore-select changes: every one that is not empty. */
  selectless(): number {
    return this.count.fence + this.count.prose + this.count['select-list'];
  }

  /** "N <start with what>, e.g. task T: "<start>"" for each kind present. */
  described(): string[] {
    return (['select-list', 'fence', 'prose'] as const)
      .filter((k) => this.count[k] > 0)
      .map((k) => {
        const e = this.example[k]!;
        const start = e.sql.length > 32 ? `${e.sql.slice(0, 32)}…` : e.sql;
        return `${this.count[k]} ${START_WORDS[k]}, e.g. task ${e.taskId}: ${JSON.stringify(start)}`;
      });
  }
}

/** Notes for one prediction file: what each repair changed, and what an off repair would have. */
export function repairNotes(applied: RepairCounts, starts: OddStarts, tabsInSql: number): string[] {
  const notes: string[] = [];
  const restored = applied['restore-select'];
  const selectless = starts.selectless();
  if (restored !== undefined && restored > 0) notes.push(`repair restore-select: "SELECT " prepended to ${restored} predictions: ${starts.described().join('; ')}`);
  else if (restored === undefined && selectless > 0) {
    notes.push(
      `${selectless} predictions start with neither a statement keyword nor a comment: ${starts.described().join('; ')}; they run as given, as in the official evaluators (--repair restore-select prepends "SELECT " to all ${selectless})`,
    );
  }
  if (starts.count.empty > 0) notes.push(`${starts.count.empty} predictions are empty; they return no rows, as Python's sqlite3 (the official evaluators') returns for empty text`);
  const tabs = applied['keep-tabs'];
  if (tabs !== undefined && tabs > 0) notes.push(`repair keep-tabs: TABs inside the SQL kept on ${tabs} lines`);
  else if (tabs === undefined && tabsInSql > 0) {
    notes.push(
      `${tabsInSql} lines have a TAB inside the SQL; as in the official readers only the text before the first TAB is the prediction (--repair keep-tabs keeps the rest)`,
    );
  }
  return notes;
}
