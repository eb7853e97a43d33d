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

/** Notes for one prediction file: what each repair changed, and what an off repair would have. */
export function repairNotes(applied: RepairCounts, candidates: Record<RepairName, number>): string[] {
  const notes: string[] = [];
  const restored = applied['restore-select'];
  if (restored !== undefined && restored > 0) notes.push(`repair restore-select: "SELECT " prepended to ${restored} predictions`);
  else if (restored === undefined && candidates['restore-select'] > 0) {
    notes.push(
      `${candidates['restore-select']} predictions start with neither a statement keyword nor a comment (a "SELECT " left out?); they run as given, as in the official evaluators (--repair restore-select prepends it)`,
    );
  }
  const tabs = applied['keep-tabs'];
  if (tabs !== undefined && tabs > 0) notes.push(`repair keep-tabs: TABs inside the SQL kept on ${tabs} lines`);
  else if (tabs === undefined && candidates['keep-tabs'] > 0) {
    notes.push(
      `${candidates['keep-tabs']} lines have a TAB inside the SQL; as in the official readers only the text before the first TAB is the prediction (--repair keep-tabs keeps the rest)`,
    );
  }
  return notes;
}
