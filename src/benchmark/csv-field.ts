/** One CSV cell as sqlboard writes it, for every CSV output (reports, audit files). */

/**
 * A cell that a spreadsheet would run as a formula (OWASP "CSV injection": a leading `=`, `+`, `-`,
 * `@`, TAB or CR) gets a leading `'`, which spreadsheets show as text; numbers such as -0.02 stay
 * as they are. Report cells carry system names, task ids and SQL that submitters chose.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
export function neutralizeFormula(value: string): string {
  return FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
}

/** RFC 4180 quoting: a field with a comma, quote, CR or LF is wrapped in quotes and its quotes doubled. */
export function csvField(value: string, raw = false): string {
  const v = raw ? value : neutralizeFormula(value);
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}
